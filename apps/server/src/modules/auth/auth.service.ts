/**
 * Login, refresh-token rotation and logout. Callers are anonymous here: the context is the request's origin.
 *
 * Refresh tokens rotate on every use. A rotated token presented again means it was copied: the whole family is
 * revoked. One exception, on purpose: clients fire several requests at once, each of which may get a 403 and call
 * refresh with the same cookie. A rotated token presented within REFRESH_REUSE_GRACE_MS while its family is still
 * alive gets a new access token only (no new refresh token, nothing revoked), so that race does not log users out.
 *
 * Clients of the family on another origin keep only the access token and never send the cookie (client-contract §1:
 * every 403 makes them call refresh). Without a cookie, the bearer refreshes: its signature is verified, its expiry
 * ignored, and its `rid` names the refresh token it was issued with, which then rotates exactly as if it had come as
 * the cookie (expiry = the session's refresh lifetime, an old bearer again = a copy, the same grace). So an access
 * token is a refresh credential of its session until that rotation; the cookie, when present, wins.
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
import { asTenantId, systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import { hashPassword, randomToken, verifyPassword } from '../../platform/crypto.js';
import { fail } from '../../platform/http/errors.js';
import type { AccessClaims, TokenService } from '../../platform/http/tokens.js';
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
  type SessionRef,
} from './auth.sessions.js';
import './auth.events.js';

/** Who is calling a public auth path. */
export interface CallerContext {
  ip: string;
}

export type LoginInput = z.output<typeof loginInputSchema>;

/** What a refresh or logout request carries: the `jrt` cookie, and the `Authorization` bearer (maybe expired). */
export interface SessionCredentials {
  cookie?: string | undefined;
  bearer?: string | undefined;
}

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
  refresh(caller: CallerContext, credentials: SessionCredentials): Promise<{ token: string; refreshToken?: string }>;
  logout(caller: CallerContext, credentials: SessionCredentials): Promise<void>;
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
  | { kind: 'ok'; user: repo.AuthUser; session: SessionRef; issued?: IssuedRefresh };

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
      const body = await loginResponse(tokens, user, issued, issued.relations);
      return { body, refreshToken: issued.refreshToken };
    },

    async refresh(_caller, credentials) {
      // The cookie, when present, wins: the bearer is the fallback of clients that never get it back.
      if (credentials.cookie) return refreshWith({ cookie: credentials.cookie });
      if (credentials.bearer) return refreshWith({ bearer: await readBearer(credentials.bearer) });
      throw fail('ERR_INVALID_TOKEN');
    },

    async logout(_caller, credentials) {
      const ended = credentials.cookie
        ? await endCookieSession(credentials.cookie)
        : credentials.bearer
          ? await endBearerSession(credentials.bearer)
          : null;
      if (ended) events.publish('auth.session_ended', ended);
    },
  };

  /** A bearer's claims when it names a session and its rotation; signature verified, expiry ignored. */
  async function readBearer(bearer: string): Promise<AccessClaims & SessionRef> {
    const claims = await tokens.verifyRefreshable(bearer);
    if (!claims.sessionId || claims.refreshId === undefined) throw fail('ERR_INVALID_TOKEN');
    return { ...claims, sessionId: claims.sessionId, refreshId: claims.refreshId };
  }

  /**
   * One rotation, with the cookie's refresh token or with the one the bearer was issued with (its `rid`): the same
   * rules for both, so an old bearer presented again counts as a copy exactly like an old cookie.
   */
  async function refreshWith(
    credential: { cookie: string; bearer?: never } | { bearer: AccessClaims & SessionRef; cookie?: never },
  ): Promise<{ token: string; refreshToken?: string }> {
    const parsed = credential.cookie !== undefined ? parseTenantToken(credential.cookie) : null;
    if (credential.cookie !== undefined && !parsed) throw fail('ERR_INVALID_TOKEN');
    const bearer = credential.bearer;
    const ctx = systemContext(asTenantId(bearer ? bearer.tenantId : parsed!.tenantId));
    const outcome = await withTenant(db, ctx, async (tx): Promise<RefreshOutcome> => {
      const row = bearer
        ? await repo.findRefreshTokenById(tx, ctx.tenantId, bearer.refreshId)
        : await repo.findRefreshToken(tx, ctx.tenantId, parsed!.hash);
      if (!row) return { kind: 'invalid' };
      // A signed bearer always names its own session's token; anything else is not ours to judge.
      if (bearer && (row.familyId !== bearer.sessionId || row.userId !== bearer.userId)) return { kind: 'invalid' };
      const revoked = { userId: row.userId, sessionId: row.familyId };
      let rotate = true;
      let live: repo.RefreshTokenRow | undefined;
      if (row.revokedAt) {
        const recent = Date.now() - row.revokedAt.getTime() < REFRESH_REUSE_GRACE_MS;
        live = recent ? await repo.findLiveFamilyToken(tx, ctx.tenantId, row.familyId) : undefined;
        if (!live) {
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
      if (rotate && (await repo.revokeRefreshToken(tx, ctx.tenantId, row.id))) {
        const issued = await issueRefreshToken(tx, user, config.refreshTokenTtl, sessionId);
        return { kind: 'ok', user, session: issued, issued };
      }
      // The grace case, or a concurrent request rotated it between our read and now: an access token only, issued
      // with the family's live token so that the bearer the client keeps still refreshes later.
      if (rotate) live = await repo.findLiveFamilyToken(tx, ctx.tenantId, sessionId);
      if (!live) return { kind: 'invalid' };
      return { kind: 'ok', user, session: { sessionId, refreshId: live.id } };
    });
    if (outcome.kind === 'invalid') {
      if (outcome.revoked) events.publish('auth.session_ended', { tenantId: ctx.tenantId, ...outcome.revoked });
      throw fail('ERR_INVALID_TOKEN');
    }
    if (outcome.kind === 'inactive') throw fail('ERR_TENANT_INACTIVE');
    const token = await signAccessToken(tokens, outcome.user, outcome.session);
    return outcome.issued ? { token, refreshToken: outcome.issued.refreshToken } : { token };
  }

  async function endCookieSession(cookie: string) {
    const parsed = parseTenantToken(cookie);
    if (!parsed) return null;
    const ctx = systemContext(parsed.tenantId);
    return withTenant(db, ctx, async (tx) => {
      const row = await repo.findRefreshToken(tx, ctx.tenantId, parsed.hash);
      if (!row) return null;
      await repo.revokeRefreshFamily(tx, ctx.tenantId, row.familyId);
      return { tenantId: ctx.tenantId, userId: row.userId, sessionId: row.familyId };
    });
  }

  /** A cookie-less client logs out with its bearer (expired or not): the session it names ends. */
  async function endBearerSession(bearer: string) {
    const claims = await tokens.verifyRefreshable(bearer).catch(() => null);
    const sessionId = claims?.sessionId;
    if (!claims || !sessionId) return null;
    const ctx = systemContext(asTenantId(claims.tenantId));
    return withTenant(db, ctx, async (tx) => {
      const live = await repo.findLiveFamilyToken(tx, ctx.tenantId, sessionId);
      if (!live || live.userId !== claims.userId) return null;
      await repo.revokeRefreshFamily(tx, ctx.tenantId, sessionId);
      return { tenantId: ctx.tenantId, userId: claims.userId, sessionId };
    });
  }
}
