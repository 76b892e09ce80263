/**
 * /api/auth/* , /api/password-reset, /api/reset-password, /api/signup and /api/signup/confirm (client-contract §2).
 * All public: the refresh token travels in the httpOnly cookie `jrt`, scoped to /api/auth. Clients on another origin
 * never get that cookie back: refresh and logout then take the `Authorization` bearer (auth.service.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  captchaChallengeSchema,
  loginInputSchema,
  loginResponseSchema,
  passwordResetRequestSchema,
  refreshResponseSchema,
  resetPasswordInputSchema,
  signupAcceptedSchema,
  signupConfirmInputSchema,
  signupInputSchema,
} from '@conversa/shared';
import type { Config } from '../../config.js';
import type { PasswordResetService } from './auth.password-reset.service.js';
import { bearerToken } from '../../platform/http/tokens.js';
import type { AuthService, CallerContext, SessionCredentials } from './auth.service.js';
import type { SignupService } from './auth.signup.service.js';

export const REFRESH_COOKIE = 'jrt';
const REFRESH_COOKIE_PATH = '/api/auth';

export interface AuthRoutesDeps {
  auth: AuthService;
  passwordReset: PasswordResetService;
  signup: SignupService;
  config: CookieConfig;
}

type CookieConfig = Pick<Config, 'publicUrl' | 'refreshTokenTtl' | 'corsOrigins'>;

/**
 * The `jrt` cookie's attributes. A web client on another site (CORS_ORIGINS) gets the cookie back only with
 * SameSite=None, which browsers accept only on a Secure cookie: so None exactly when both hold, else Lax.
 */
export function refreshCookieOptions(config: Pick<Config, 'publicUrl' | 'corsOrigins'>) {
  const secure = config.publicUrl.startsWith('https:');
  const crossSite = secure && config.corsOrigins.length > 0;
  return { path: REFRESH_COOKIE_PATH, httpOnly: true, sameSite: crossSite ? 'none' : 'lax', secure } as const;
}

/** Writes the `jrt` cookie (also used by the users module when one's own password change renews the session). */
export function refreshCookieWriter(config: CookieConfig) {
  const options = refreshCookieOptions(config);
  return (reply: FastifyReply, value: string) =>
    reply.setCookie(REFRESH_COOKIE, value, { ...options, maxAge: config.refreshTokenTtl });
}

const publicRoute = { public: true } as const;
const noContent = { 204: z.null().describe('No content') };
const caller = (request: FastifyRequest): CallerContext => ({ ip: request.ip });
/** Refresh and logout read the cookie first; a client that never gets the cookie back sends only its bearer. */
const credentials = (request: FastifyRequest): SessionCredentials => ({
  cookie: request.cookies[REFRESH_COOKIE],
  bearer: bearerToken(request.headers.authorization),
});

export function authRoutes(deps: AuthRoutesDeps): FastifyPluginAsyncZod {
  const { auth, passwordReset, signup, config } = deps;
  const setRefreshCookie = refreshCookieWriter(config);

  return async (app) => {
    app.get(
      '/auth/captcha',
      { config: publicRoute, schema: { tags: ['auth'], response: { 200: captchaChallengeSchema } } },
      async (request, reply) => {
        void reply.header('Cache-Control', 'no-store');
        return auth.captchaChallenge(caller(request));
      },
    );

    app.post(
      '/auth/login',
      {
        config: publicRoute,
        schema: { tags: ['auth'], body: loginInputSchema, response: { 200: loginResponseSchema } },
      },
      async (request, reply) => {
        const session = await auth.login(caller(request), request.body);
        setRefreshCookie(reply, session.refreshToken);
        return session.body;
      },
    );

    app.post(
      '/auth/refresh_token',
      { config: publicRoute, schema: { tags: ['auth'], response: { 200: refreshResponseSchema } } },
      async (request, reply) => {
        const result = await auth.refresh(caller(request), credentials(request));
        if (result.refreshToken) setRefreshCookie(reply, result.refreshToken);
        return { token: result.token };
      },
    );

    // Clients send their whole stored login object as the body: it is ignored (client-contract §21.10).
    app.post(
      '/auth/logout',
      { config: publicRoute, schema: { tags: ['auth'], response: noContent } },
      async (request, reply) => {
        await auth.logout(caller(request), credentials(request));
        reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(config));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/password-reset',
      { config: publicRoute, schema: { tags: ['auth'], body: passwordResetRequestSchema, response: noContent } },
      async (request, reply) => {
        await passwordReset.requestReset(caller(request), request.body);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/reset-password',
      { config: publicRoute, schema: { tags: ['auth'], body: resetPasswordInputSchema, response: noContent } },
      async (request, reply) => {
        await passwordReset.resetPassword(caller(request), request.body);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/signup',
      {
        config: publicRoute,
        schema: { tags: ['auth'], body: signupInputSchema, response: { 202: signupAcceptedSchema } },
      },
      async (request, reply) => {
        await signup.signup(caller(request), request.body);
        return reply.status(202).send({ status: 'confirmation_sent' });
      },
    );

    app.post(
      '/signup/confirm',
      {
        config: publicRoute,
        schema: { tags: ['auth'], body: signupConfirmInputSchema, response: { 200: loginResponseSchema } },
      },
      async (request, reply) => {
        const session = await signup.confirm(caller(request), request.body.token);
        setRefreshCookie(reply, session.refreshToken);
        return session.body;
      },
    );
  };
}
