/**
 * Login, refresh-token rotation and logout. Callers are anonymous here: the context is the request's origin.
 *
 * Refresh tokens rotate on every use. A rotated token presented again means it was copied: the whole family is
 * revoked. One exception, on purpose: clients fire several requests at once, each of which may get a 403 and call
 * refresh with the same cookie. A rotated token presented within REFRESH_REUSE_GRACE_MS while its family is still
 * alive gets a new access token only (no new refresh token, nothing revoked), so that race does not log users out.
 */
import type { z } from 'zod';
import {
  LOGIN_RATE_MAX_ATTEMPTS,
  LOGIN_RATE_WINDOW_MS,
  type CaptchaAnswer,
  type CaptchaChallenge,
  type loginInputSchema,
} from '@conversa/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import { hashPassword, randomToken, verifyPassword } from '../../platform/crypto.js';
import { fail } from '../../platform/http/errors.js';
import type { TokenService } from '../../platform/http/tokens.js';
import type { EventBus } from '../../platform/events/bus.js';
import { findTenantById } from '../tenants/index.js';
import { loadUserChannels, loadUserQueues } from '../users/index.js';
import { createCaptchaChallenge, DISABLED_CAPTCHA, isCaptchaPositionRight, openCaptcha } from './auth.captcha.js';
import {
  createMemoryBackoff,
  createMemoryRateLimiter,
  type BackoffPolicy,
  type FailureBackoff,
  type RateLimiter,
} from './auth.rate-limiter.js';
import * as repo from './auth.repository.js';
import {
  isTenantUsable,
  issueRefreshToken,
  loginResponse,
  parseTenantToken,
  signAccessToken,
  type IssuedRefresh,
  type Session,
} from './auth.sessions.js';
import './auth.events.js';

/** Who is calling a public auth path. */
export interface CallerContext {
  ip: string;
}

export type LoginInput = z.output<typeof loginInputSchema>;

export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface AuthServiceDeps {
  db: Database;
  tokens: TokenService;
  events: EventBus;
  config: Pick<Config, 'loginCaptcha' | 'refreshTokenTtl'>;
  captchaSecret: string;
  /** Failed logins per (e-mail, IP) pair, refused for a growing time past the threshold. */
  loginByPair?: FailureBackoff;
  loginByIp?: RateLimiter;
}

export interface AuthService {
  captchaChallenge(caller: CallerContext): CaptchaChallenge;
  login(caller: CallerContext, input: LoginInput): Promise<Session>;
  /** A new access token, and a new refresh token unless the grace case of the header comment applied. */
  refresh(caller: CallerContext, refreshToken: string | undefined): Promise<{ token: string; refreshToken?: string }>;
  logout(caller: CallerContext, refreshToken: string | undefined): Promise<void>;
}

/**
 * A login's failures count per (e-mail, IP) pair, not per account: the attacker's pair is refused (5 failures: 1
 * minute, then 2, 4 ... up to an hour for each further failure), while the owner, from another address, still logs
 * in (a lock of the account would be the attacker's to set). The captcha slows every try; the per-IP cap below bounds
 * one address over all e-mails.
 */
export const LOGIN_PAIR_POLICY: BackoffPolicy = {
  threshold: LOGIN_RATE_MAX_ATTEMPTS,
  baseMs: LOGIN_RATE_WINDOW_MS,
  maxMs: 60 * 60_000,
  forgetMs: 24 * 60 * 60_000,
  maxKeys: 100_000,
};
/** Per address, every attempt counts (any e-mail, any outcome); the budget fits an office behind one NAT address. */
export const LOGIN_PER_IP_MAX = 30;
const ipPolicy = { max: LOGIN_PER_IP_MAX, windowMs: LOGIN_RATE_WINDOW_MS };

type RefreshOutcome =
  | { kind: 'invalid'; revoked?: { userId: number; sessionId: string } }
  | { kind: 'inactive' }
  | { kind: 'ok'; user: repo.AuthUser; sessionId: string; issued?: IssuedRefresh };

/** The slider captcha's server check (login and sign-up): a sealed, unexpired challenge, answered once, within 6 px. */
export function createCaptchaVerifier(db: Database, secret: string) {
  return async (answer: CaptchaAnswer | undefined): Promise<void> => {
    const opened = answer ? openCaptcha(secret, answer.token) : null;
    if (!answer || !opened || opened.exp <= Date.now()) throw fail('ERR_CAPTCHA_INVALID', 'captcha');
    // Burn the nonce before looking at the answer: one challenge, one try.
    const fresh = await withSystem(db, 'auth.login-lookup', (tx) =>
      repo.consumeCaptchaNonce(tx, opened.nonce, new Date(opened.exp)),
    );
    if (!fresh || !isCaptchaPositionRight(opened, answer.x)) throw fail('ERR_CAPTCHA_INVALID', 'captcha');
  };
}

export function createAuthService(deps: AuthServiceDeps): AuthService {
  const { db, tokens, config, events } = deps;
  const byPair = deps.loginByPair ?? createMemoryBackoff(LOGIN_PAIR_POLICY);
  const byIp = deps.loginByIp ?? createMemoryRateLimiter(ipPolicy);
  // Verified against when the e-mail is unknown, so the answer takes as long as for a wrong password.
  let dummyHash: Promise<string> | undefined;

  const verifyCaptcha = createCaptchaVerifier(db, deps.captchaSecret);

  return {
    captchaChallenge() {
      return config.loginCaptcha ? createCaptchaChallenge(deps.captchaSecret) : DISABLED_CAPTCHA;
    },

    async login(caller, input) {
      // Every attempt counts for the address; the pair is refused while its failures' refusal lasts.
      const pair = `${input.email.trim().toLowerCase()}\n${caller.ip}`;
      const ipAllowed = await byIp.hit(caller.ip);
      if (!ipAllowed || (await byPair.refusedFor(pair)) > 0) throw fail('ERR_LIMIT_MAX');
      if (config.loginCaptcha) await verifyCaptcha(input.captcha);

      const user = await withSystem(db, 'auth.login-lookup', (tx) => repo.findUserByEmail(tx, input.email));
      const hash = user?.passwordHash ?? (await (dummyHash ??= hashPassword(randomToken())));
      const valid = await verifyPassword(hash, input.password);
      if (!user || !valid) {
        // Unknown addresses count too, or the refusal would tell which addresses exist.
        await byPair.fail(pair);
        throw fail('ERR_INVALID_CREDENTIALS');
      }

      const ctx = { ...systemContext(user.tenantId), userId: user.id, profile: user.profile };
      const issued = await withTenant(db, ctx, async (tx) => {
        if (!isTenantUsable(await findTenantById(tx, ctx.tenantId))) return null;
        await repo.touchLastLogin(tx, ctx.tenantId, user.id);
        const relations = {
          queues: (await loadUserQueues(tx, [user.id])).get(user.id) ?? [],
          whatsappAllowed: (await loadUserChannels(tx, [user.id])).get(user.id) ?? [],
        };
        return { ...(await issueRefreshToken(tx, user, config.refreshTokenTtl)), relations };
      });
      if (!issued) throw fail('ERR_TENANT_INACTIVE');
      await byPair.reset(pair);
      const body = await loginResponse(tokens, user, issued.sessionId, issued.relations);
      return { body, refreshToken: issued.refreshToken };
    },

    async refresh(_caller, cookie) {
      const parsed = parseTenantToken(cookie);
      if (!parsed) throw fail('ERR_INVALID_TOKEN');
      const ctx = systemContext(parsed.tenantId);
      const outcome = await withTenant(db, ctx, async (tx): Promise<RefreshOutcome> => {
        const row = await repo.findRefreshToken(tx, ctx.tenantId, parsed.hash);
        if (!row) return { kind: 'invalid' };
        const revoked = { userId: row.userId, sessionId: row.familyId };
        let rotate = true;
        if (row.revokedAt) {
          const recent = Date.now() - row.revokedAt.getTime() < REFRESH_REUSE_GRACE_MS;
          if (!recent || !(await repo.familyHasLiveToken(tx, ctx.tenantId, row.familyId))) {
            await repo.revokeRefreshFamily(tx, ctx.tenantId, row.familyId);
            return { kind: 'invalid', revoked };
          }
          rotate = false;
        } else if (row.expiresAt.getTime() <= Date.now()) {
          return { kind: 'invalid' };
        }
        const user = await repo.findUserById(tx, ctx.tenantId, row.userId);
        if (!user || user.tokenVersion !== row.tokenVersion) {
          await repo.revokeRefreshFamily(tx, ctx.tenantId, row.familyId);
          return { kind: 'invalid', revoked };
        }
        if (!isTenantUsable(await findTenantById(tx, ctx.tenantId))) return { kind: 'inactive' };
        const sessionId = row.familyId;
        // A concurrent request may have rotated it between our read and now: then it is the grace case.
        if (!rotate || !(await repo.revokeRefreshToken(tx, ctx.tenantId, row.id)))
          return { kind: 'ok', user, sessionId };
        const issued = await issueRefreshToken(tx, user, config.refreshTokenTtl, sessionId);
        return { kind: 'ok', user, sessionId, issued };
      });
      if (outcome.kind === 'invalid') {
        if (outcome.revoked) events.publish('auth.session_ended', { tenantId: ctx.tenantId, ...outcome.revoked });
        throw fail('ERR_INVALID_TOKEN');
      }
      if (outcome.kind === 'inactive') throw fail('ERR_TENANT_INACTIVE');
      const token = await signAccessToken(tokens, outcome.user, outcome.sessionId);
      return outcome.issued ? { token, refreshToken: outcome.issued.refreshToken } : { token };
    },

    async logout(_caller, cookie) {
      const parsed = parseTenantToken(cookie);
      if (!parsed) return;
      const ctx = systemContext(parsed.tenantId);
      const ended = await withTenant(db, ctx, async (tx) => {
        const row = await repo.findRefreshToken(tx, ctx.tenantId, parsed.hash);
        if (!row) return null;
        await repo.revokeRefreshFamily(tx, ctx.tenantId, row.familyId);
        return { userId: row.userId, sessionId: row.familyId };
      });
      if (ended) events.publish('auth.session_ended', { tenantId: ctx.tenantId, ...ended });
    },
  };
}
