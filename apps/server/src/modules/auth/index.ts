import type { AppModule } from '../../modules.js';
import { createAuthJobs } from './auth.jobs.js';
import { createPasswordResetService } from './auth.password-reset.service.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createSignupService } from './auth.signup.service.js';

export { captchaUses, passwordResetTokens, refreshTokens } from './auth.tables.js';
export { CLEANUP_EXPIRED_TOKENS_JOB, SEND_PASSWORD_RESET_JOB } from './auth.jobs.js';

export const authModule: AppModule = (platform, deps) => {
  const { db, tokens, config, jobs, secrets } = platform;
  const authJobs = createAuthJobs({ db, mailer: deps.mailer, config });
  const auth = createAuthService({ db, tokens, config, captchaSecret: secrets.captchaSecret });
  const passwordReset = createPasswordResetService({ db, jobs, config, sendJob: authJobs.sendPasswordReset });
  const signup = createSignupService({ db, tokens, config });
  return {
    plugin: authRoutes({ auth, passwordReset, signup, config }),
    jobs: [authJobs.sendPasswordReset, authJobs.cleanupExpiredTokens] as never[],
  };
};
