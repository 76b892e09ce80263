import type { AppModule } from '../../kernel/module.js';
import { createAuthJobs } from './auth.jobs.js';
import { createPasswordResetService } from './auth.password-reset.service.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService, createCaptchaVerifier } from './auth.service.js';
import { createSignupService } from './auth.signup.service.js';
import { registerSocketSessions } from './auth.socket-sessions.js';

export { CLEANUP_EXPIRED_TOKENS_JOB, SEND_PASSWORD_RESET_JOB, SEND_SIGNUP_MAIL_JOB } from './auth.jobs.js';
export { createUserSessions } from './auth.own-session.js';

export const authModule: AppModule = (platform, deps) => {
  const { db, tokens, config, jobs, secrets, events } = platform;
  registerSocketSessions({ db, events, realtime: platform.realtime });
  const authJobs = createAuthJobs({ db, mailer: deps.mailer, config });
  const auth = createAuthService({ db, tokens, events, config, captchaSecret: secrets.captchaSecret });
  const passwordReset = createPasswordResetService({
    db,
    events,
    jobs,
    config,
    sendJob: authJobs.sendPasswordReset,
  });
  const signup = createSignupService({
    db,
    tokens,
    jobs,
    config,
    verifyCaptcha: createCaptchaVerifier(db, secrets.captchaSecret),
    sendJob: authJobs.sendSignupMail,
  });
  return {
    plugin: authRoutes({ auth, passwordReset, signup, config }),
    jobs: [authJobs.sendPasswordReset, authJobs.sendSignupMail, authJobs.cleanupExpiredTokens] as never[],
  };
};
