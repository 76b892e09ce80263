/**
 * Auth jobs: the password-reset and sign-up e-mails, and the daily sweep of dead tokens, captcha nonces and pending
 * sign-ups.
 */
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Mailer } from '../../integrations/smtp/mailer.js';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import { sha256 } from '../../platform/crypto.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import * as repo from './auth.repository.js';
import { signupConfirmationMail, signupTakenMail } from './auth.signup.mail.js';
import { deleteStaleSignupRequests, findPendingSignup } from './auth.signup.repository.js';

export const SEND_PASSWORD_RESET_JOB = 'auth.send-password-reset';
export const SEND_SIGNUP_MAIL_JOB = 'auth.send-signup-mail';
export const CLEANUP_EXPIRED_TOKENS_JOB = 'auth.cleanup-expired-tokens';

export const sendPasswordResetPayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  userId: z.number().int().positive(),
  token: z.string().min(10).max(512),
});
export type SendPasswordResetPayload = z.infer<typeof sendPasswordResetPayloadSchema>;

/** `confirm`: the link of a new address's pending sign-up; `taken`: the address is registered, its owner is told. */
export const signupMailPayloadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('confirm'), email: z.string().max(254), token: z.string().min(20).max(512) }),
  z.object({ kind: z.literal('taken'), email: z.string().max(254) }),
]);
export type SignupMailPayload = z.infer<typeof signupMailPayloadSchema>;

/** Cron jobs are scheduled with an empty payload. */
const cleanupPayloadSchema = z.object({});
type CleanupPayload = z.infer<typeof cleanupPayloadSchema>;

export interface AuthJobs {
  sendPasswordReset: JobDefinition<SendPasswordResetPayload>;
  sendSignupMail: JobDefinition<SignupMailPayload>;
  cleanupExpiredTokens: JobDefinition<CleanupPayload>;
}

export function passwordResetMail(name: string, link: string, minutes: number): { subject: string; text: string } {
  return {
    subject: 'Redefinição de senha / Password reset',
    text: [
      `Olá, ${name}.`,
      '',
      `Recebemos um pedido para redefinir a sua senha. Para criar uma nova senha, abra o link abaixo (válido por ${minutes} minutos):`,
      link,
      '',
      'Se você não fez este pedido, ignore este e-mail: a sua senha continua a mesma.',
      '',
      '---',
      '',
      `Hello, ${name}.`,
      '',
      `We received a request to reset your password. To choose a new one, open the link below (valid for ${minutes} minutes):`,
      link,
      '',
      'If you did not ask for this, ignore this e-mail: your password stays the same.',
    ].join('\n'),
  };
}

export function createAuthJobs(deps: {
  db: Database;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'passwordResetTtl'>;
}): AuthJobs {
  const { db, mailer, config } = deps;

  const sendPasswordReset = defineJob<SendPasswordResetPayload>({
    name: SEND_PASSWORD_RESET_JOB,
    schema: sendPasswordResetPayloadSchema,
    retryLimit: 5,
    retryDelaySeconds: 30,
    async handler({ tenantId, userId, token }) {
      const ctx = systemContext(tenantId);
      const user = await withTenant(db, ctx, async (tx) => {
        // A used or expired link is not worth sending (a retry after the user already reset, for instance).
        const usable = await repo.findUsableResetToken(tx, ctx.tenantId, sha256(token));
        return usable?.userId === userId ? repo.findUserById(tx, ctx.tenantId, userId) : undefined;
      });
      if (!user) return;
      const link = `${config.publicUrl}/#/reset/${token}`;
      const mail = passwordResetMail(user.name, link, Math.round(config.passwordResetTtl / 60));
      await mailer.send({ to: user.email, ...mail });
    },
  });

  const sendSignupMail = defineJob<SignupMailPayload>({
    name: SEND_SIGNUP_MAIL_JOB,
    schema: signupMailPayloadSchema,
    retryLimit: 5,
    retryDelaySeconds: 30,
    async handler(payload) {
      if (payload.kind === 'taken') {
        await mailer.send({ to: payload.email, ...signupTakenMail(config.publicUrl) });
        return;
      }
      // A confirmed or expired request is not worth sending (a retry after the link was already followed).
      const pending = await withSystem(db, 'auth.signup', (tx) => findPendingSignup(tx, sha256(payload.token)));
      if (!pending) return;
      const link = `${config.publicUrl}/#/signup/confirm/${payload.token}`;
      await mailer.send({ to: pending.email, ...signupConfirmationMail(link) });
    },
  });

  const cleanupExpiredTokens = defineJob<CleanupPayload>({
    name: CLEANUP_EXPIRED_TOKENS_JOB,
    schema: cleanupPayloadSchema,
    cron: '15 3 * * *',
    retryLimit: 2,
    async handler() {
      await withSystem(db, 'jobs.cleanup', async (tx) => {
        await repo.deleteStaleAuthRows(tx);
        await deleteStaleSignupRequests(tx);
      });
    },
  });

  return { sendPasswordReset, sendSignupMail, cleanupExpiredTokens };
}
