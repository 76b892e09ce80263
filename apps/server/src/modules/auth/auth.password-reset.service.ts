/**
 * Password recovery: a request always answers the same (no e-mail enumeration); a known address gets a hashed,
 * single-use, expiring token whose e-mail is sent by a job enqueued in the same transaction.
 */
import type { z } from 'zod';
import {
  LOGIN_RATE_MAX_ATTEMPTS,
  LOGIN_RATE_WINDOW_MS,
  type passwordResetRequestSchema,
  type resetPasswordInputSchema,
} from '@conversa/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import { hashPassword, sha256 } from '../../platform/crypto.js';
import { fail } from '../../platform/http/errors.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import type { SendPasswordResetPayload } from './auth.jobs.js';
import { createMemoryRateLimiter, type RateLimiter } from './auth.rate-limiter.js';
import type { EventBus } from '../../platform/events/bus.js';
import * as repo from './auth.repository.js';
import './auth.events.js';
import type { CallerContext } from './auth.service.js';
import { newTenantToken, parseTenantToken } from './auth.sessions.js';

export type PasswordResetRequest = z.output<typeof passwordResetRequestSchema>;
export type ResetPasswordInput = z.output<typeof resetPasswordInputSchema>;

export interface PasswordResetDeps {
  db: Database;
  events: EventBus;
  jobs: JobQueue;
  config: Pick<Config, 'passwordResetTtl'>;
  sendJob: JobDefinition<SendPasswordResetPayload>;
  byEmail?: RateLimiter;
  byIp?: RateLimiter;
}

/**
 * Reset requests per IP address (any e-mail): each one may send a mail, so one address may not mail many accounts.
 * 10 in 15 minutes, besides the 5 a minute per e-mail.
 */
export const PASSWORD_RESET_PER_IP = { max: 10, windowMs: 15 * 60_000 };

export interface PasswordResetService {
  requestReset(caller: CallerContext, input: PasswordResetRequest): Promise<void>;
  resetPassword(caller: CallerContext, input: ResetPasswordInput): Promise<void>;
}

export function createPasswordResetService(deps: PasswordResetDeps): PasswordResetService {
  const { db, jobs, config } = deps;
  const byEmail =
    deps.byEmail ?? createMemoryRateLimiter({ max: LOGIN_RATE_MAX_ATTEMPTS, windowMs: LOGIN_RATE_WINDOW_MS });
  const byIp = deps.byIp ?? createMemoryRateLimiter(PASSWORD_RESET_PER_IP);

  return {
    async requestReset(caller, input) {
      // Counted for unknown addresses too, or the limit itself would tell which addresses exist. The address first:
      // a refused address spends nothing of the e-mail's budget (its owner may still ask from elsewhere).
      if (!(await byIp.hit(caller.ip))) throw fail('ERR_LIMIT_MAX');
      if (!(await byEmail.hit(input.email.trim().toLowerCase()))) throw fail('ERR_LIMIT_MAX');
      await withSystem(db, 'auth.password-reset-lookup', async (tx) => {
        const user = await repo.findUserByEmail(tx, input.email);
        if (!user) return;
        const token = newTenantToken(user.tenantId);
        await repo.insertPasswordResetToken(tx, {
          tenantId: user.tenantId,
          userId: user.id,
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + config.passwordResetTtl * 1000),
        });
        await jobs.enqueue(deps.sendJob, { tenantId: user.tenantId, userId: user.id, token }, { tx });
      });
    },

    async resetPassword(_caller, input) {
      const parsed = parseTenantToken(input.token);
      if (!parsed) throw fail('ERR_INVALID_RESET_TOKEN', 'token');
      const ctx = systemContext(parsed.tenantId);
      // Cheap check first, so a bogus token does not cost an argon2 hash.
      const usable = await withTenant(db, ctx, (tx) => repo.findUsableResetToken(tx, ctx.tenantId, parsed.hash));
      if (!usable) throw fail('ERR_INVALID_RESET_TOKEN', 'token');
      const passwordHash = await hashPassword(input.password);
      const userId = await withTenant(db, ctx, async (tx) => {
        const consumed = await repo.consumeResetToken(tx, ctx.tenantId, parsed.hash);
        if (!consumed) return null;
        await repo.replacePassword(tx, ctx.tenantId, consumed.userId, passwordHash);
        await repo.consumeUserResetTokens(tx, ctx.tenantId, consumed.userId);
        await repo.revokeUserRefreshTokens(tx, ctx.tenantId, consumed.userId);
        return consumed.userId;
      });
      if (userId === null) throw fail('ERR_INVALID_RESET_TOKEN', 'token');
      deps.events.publish('auth.sessions_revoked', { tenantId: ctx.tenantId, userId });
    },
  };
}
