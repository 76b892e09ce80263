/**
 * Authentication applied once for the whole API: every route is private unless it sets `config.public`. The hook
 * resolves the tenant context from the token; routes then call `requireProfile` for their permission rule.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Profile } from '@conversa/shared';
import { asTenantId, type TenantContext } from '../db/tenancy.js';
import { fail } from './errors.js';
import { bearerToken, type TokenService } from './tokens.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
  }
  interface FastifyRequest {
    ctx: TenantContext & { sessionId?: string | undefined };
  }
}

export interface AuthedContext extends TenantContext {
  userId: number;
  profile: Profile;
  /** The caller's login session (the token's `sid`): a self-service password change keeps it alive. */
  sessionId?: string | undefined;
}

export function registerAuthentication(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('ctx', null as unknown as TenantContext);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public || !request.routeOptions.url) return;
    const claims = await tokens.verifyAccess(bearerToken(request.headers.authorization));
    request.ctx = {
      tenantId: asTenantId(claims.tenantId),
      userId: claims.userId,
      profile: claims.profile,
      sessionId: claims.sessionId,
    };
  });
}

/** The caller's context; only for private routes, where the hook has set it. */
export function actor(request: FastifyRequest): AuthedContext {
  const ctx = request.ctx;
  if (!ctx || ctx.userId === null || ctx.profile === null) throw fail('ERR_INVALID_TOKEN');
  return ctx as AuthedContext;
}

const RANK: Record<Profile, number> = { user: 0, super: 1, admin: 2, superadmin: 3 };

/** Admin rights come from the profile alone (never from the spec's e-mail "support" rule). */
export function requireProfile(request: FastifyRequest, minimum: Profile): AuthedContext {
  const ctx = actor(request);
  if (RANK[ctx.profile] < RANK[minimum]) throw fail('ERR_NO_PERMISSION');
  return ctx;
}

export const profileRank = (profile: Profile): number => RANK[profile];
