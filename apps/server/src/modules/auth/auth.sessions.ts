/**
 * What a session is made of: a short-lived access token (JWT) and an opaque refresh token kept in the `jrt` cookie,
 * stored only as a SHA-256 hash, rotated on use within a family. The family id is the session id (`sid`) every access
 * token of the session carries; its `rid` names the refresh token it was issued with, so a client without the cookie
 * can refresh with its bearer (auth.service.ts). Login and sign-up confirmation both end here.
 */
import crypto from 'node:crypto';
import type { LoginResponse } from '@conversa/shared';
import type { TenantRow } from '../tenants/index.js';
import type { Queryable } from '../../platform/db/client.js';
import { asTenantId, type TenantId } from '../../platform/db/tenancy.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { TokenService } from '../../platform/http/tokens.js';
import { insertRefreshToken, type AuthUser } from './auth.repository.js';

export interface Session {
  body: LoginResponse;
  /** The new refresh token, for the `jrt` cookie. */
  refreshToken: string;
}

/** Which rotation of which session an access token is issued with (claims `sid` and `rid`). */
export interface SessionRef {
  sessionId: string;
  /** The refresh token's row id. */
  refreshId: number;
}

/** A refresh token and the session (family) it belongs to. */
export interface IssuedRefresh extends SessionRef {
  refreshToken: string;
}

/** A trial whose due date has passed counts as inactive, like a deactivated tenant. */
export function isTenantUsable(tenant: Pick<TenantRow, 'status' | 'trial' | 'dueDate'> | undefined): boolean {
  if (tenant?.status !== 'active') return false;
  return !(tenant.trial === 'enabled' && tenant.dueDate && tenant.dueDate.getTime() <= Date.now());
}

/** Opaque single-use tokens carry their tenant as a prefix, so lookups can run inside withTenant. */
export const newTenantToken = (tenantId: number): string => `${tenantId}.${randomToken(32)}`;

const TENANT_TOKEN = /^([1-9]\d{0,14})\.[A-Za-z0-9_-]{20,200}$/;

export function parseTenantToken(value: string | undefined | null): { tenantId: TenantId; hash: string } | null {
  const match = value ? TENANT_TOKEN.exec(value) : null;
  if (!value || !match) return null;
  return { tenantId: asTenantId(Number(match[1])), hash: sha256(value) };
}

export async function issueRefreshToken(
  tx: Queryable,
  user: Pick<AuthUser, 'id' | 'tenantId' | 'tokenVersion'>,
  ttlSeconds: number,
  familyId: string = crypto.randomUUID(),
): Promise<IssuedRefresh> {
  const token = newTenantToken(user.tenantId);
  const refreshId = await insertRefreshToken(tx, {
    tenantId: user.tenantId,
    userId: user.id,
    tokenHash: sha256(token),
    familyId,
    tokenVersion: user.tokenVersion,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return { refreshToken: token, sessionId: familyId, refreshId };
}

export const signAccessToken = (
  tokens: TokenService,
  user: Pick<AuthUser, 'id' | 'tenantId' | 'profile' | 'tokenVersion'>,
  session: SessionRef,
): Promise<string> =>
  tokens.signAccess({
    userId: user.id,
    tenantId: user.tenantId,
    profile: user.profile,
    tokenVersion: user.tokenVersion,
    sessionId: session.sessionId,
    refreshId: session.refreshId,
  });

/** The user's queues and allowed channels as the login answer carries them (`queues[]`, `whatsappAllowed[]`). */
export interface LoginRelations {
  queues: { id: number; name: string }[];
  whatsappAllowed: { id: number; name: string }[];
}

/** The login answer of product-spec §3. */
export async function loginResponse(
  tokens: TokenService,
  user: AuthUser,
  session: SessionRef,
  relations: LoginRelations = { queues: [], whatsappAllowed: [] },
): Promise<LoginResponse> {
  return {
    token: await signAccessToken(tokens, user, session),
    username: user.name,
    email: user.email,
    profile: user.profile,
    userId: user.id,
    tenantId: user.tenantId,
    queues: relations.queues,
    blockWavoip: user.blockWavoip,
    whatsappAllowed: relations.whatsappAllowed,
    configs: {
      ...(user.configs?.filtrosAtendimento !== undefined
        ? { filtrosAtendimento: user.configs.filtrosAtendimento }
        : {}),
      isDark: user.configs?.isDark ?? false,
    },
  };
}
