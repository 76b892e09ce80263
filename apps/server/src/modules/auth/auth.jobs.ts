/** Auth jobs: the password-reset e-mail, and the daily sweep of dead tokens and captcha nonces. */
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Mailer } from '../../integrations/smtp/mailer.js';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import { sha256 } from '../../platform/crypto.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import * as repo from './auth.repository.js';

export const SEND_PASSWORD_RESET_JOB = 'auth.send-password-reset';
export const CLEANUP_EXPIRED_TOKENS_JOB = 'auth.cleanup-expired-tokens';

export const sendPasswordResetPayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  userId: z.number().int().positive(),
  token: z.string().min(10).max(512),
});
export type SendPasswordResetPayload = z.infer<typeof sendPasswordResetPayloadSchema>;

/** Cron jobs are scheduled with an empty payload. */
const cleanupPayloadSchema = z.object({});
type CleanupPayload = z.infer<typeof cleanupPayloadSchema>;

export interface AuthJobs {
  sendPasswordReset: JobDefinition<SendPasswordResetPayload>;
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

  const cleanupExpiredTokens = defineJob<CleanupPayload>({
    name: CLEANUP_EXPIRED_TOKENS_JOB,
    schema: cleanupPayloadSchema,
    cron: '15 3 * * *',
    retryLimit: 2,
    async handler() {
      await withSystem(db, 'jobs.cleanup', (tx) => repo.deleteStaleAuthRows(tx));
    },
  });

  return { sendPasswordReset, cleanupExpiredTokens };
}
