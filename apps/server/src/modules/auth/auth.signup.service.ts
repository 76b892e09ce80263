/**
 * Self sign-up (product-spec §2 /signup) in two steps, so nobody creates a company for an address they do not own and
 * the answer never tells whether an address is registered:
 * 1. `signup`: captcha (as the login's), the form checked, the password hashed whatever happens next (one timing
 *    class), then for a new address a pending request (token stored hashed, 24 h) and the confirmation e-mail, for a
 *    registered one an e-mail telling its owner. Both answer the same 202; nothing is created yet.
 * 2. `confirm`: the link's token creates the tenant (limits and due date from the chosen plan), its settings and its
 *    admin in one transaction, consumes the request and logs the admin in.
 */
import type { z } from 'zod';
import { isValidCpfCnpj, type signupInputSchema } from '@conversa/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../platform/db/client.js';
import { withSystem } from '../../platform/db/tenancy.js';
import { hashPassword, randomToken, sha256 } from '../../platform/crypto.js';
import { fail } from '../../platform/http/errors.js';
import type { TokenService } from '../../platform/http/tokens.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import { insertDefaultSettings } from '../settings/index.js';
import { findPublicPlan, insertTenant, type PlanRow } from '../tenants/index.js';
import type { SignupMailPayload } from './auth.jobs.js';
import { createMemoryRateLimiter, type RateLimiter } from './auth.rate-limiter.js';
import * as repo from './auth.repository.js';
import type { CallerContext } from './auth.service.js';
import { issueRefreshToken, loginResponse, type Session } from './auth.sessions.js';
import * as signups from './auth.signup.repository.js';

export type SignupInput = z.output<typeof signupInputSchema>;

export const SIGNUP_RATE_PER_IP = 10;
const SIGNUP_WINDOW_MS = 60_000;
export const SIGNUP_TTL_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A paid plan's first period; a trial plan's is its trialPeriod in days. */
export const PAID_PERIOD_DAYS = 30;

export interface SignupDeps {
  db: Database;
  tokens: TokenService;
  jobs: JobQueue;
  config: Pick<Config, 'refreshTokenTtl' | 'loginCaptcha'>;
  verifyCaptcha: (answer: SignupInput['captcha']) => Promise<void>;
  sendJob: JobDefinition<SignupMailPayload>;
  byIp?: RateLimiter;
}

export interface SignupService {
  signup(caller: CallerContext, input: SignupInput): Promise<void>;
  confirm(caller: CallerContext, token: string): Promise<Session>;
}

/** The unique index on lower(email) decides a race between two confirmations with one address. */
function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | undefined)?.cause) === '23505';
}

export const dueDateOf = (plan: Pick<PlanRow, 'trial' | 'trialPeriod'>, now = Date.now()): Date =>
  new Date(now + (plan.trial === 'enabled' ? plan.trialPeriod : PAID_PERIOD_DAYS) * DAY_MS);

export function createSignupService(deps: SignupDeps): SignupService {
  const { db, tokens, jobs, config } = deps;
  const byIp = deps.byIp ?? createMemoryRateLimiter({ max: SIGNUP_RATE_PER_IP, windowMs: SIGNUP_WINDOW_MS });

  return {
    async signup(caller, input) {
      if (!(await byIp.hit(caller.ip))) throw fail('ERR_LIMIT_MAX');
      if (config.loginCaptcha) await deps.verifyCaptcha(input.captcha);
      if (!isValidCpfCnpj(input.cpfCnpj)) throw fail('ERR_INVALID_CPF_CNPJ', 'cpfCnpj');
      const passwordHash = await hashPassword(input.password);
      await withSystem(db, 'auth.signup', async (tx) => {
        if (!(await findPublicPlan(tx, input.planId))) throw fail('ERR_NO_PLAN_FOUND', 'planId');
        if (await repo.findUserByEmail(tx, input.email)) {
          await jobs.enqueue(deps.sendJob, { kind: 'taken', email: input.email }, { tx });
          return;
        }
        const token = randomToken(32);
        await signups.insertSignupRequest(tx, {
          email: input.email,
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + SIGNUP_TTL_MS),
          payload: {
            name: input.name,
            userName: input.userName ?? input.name,
            cpfCnpj: input.cpfCnpj.replace(/\D/g, ''),
            mobilePhone: input.mobilePhone,
            passwordHash,
            planId: input.planId,
          },
        });
        await jobs.enqueue(deps.sendJob, { kind: 'confirm', email: input.email, token }, { tx });
      });
    },

    async confirm(_caller, token) {
      try {
        const { user, issued } = await withSystem(db, 'auth.signup', async (tx) => {
          const request = await signups.consumeSignupRequest(tx, sha256(token));
          if (!request) throw fail('ERR_SIGNUP_TOKEN_INVALID', 'token');
          const { payload } = request;
          const plan = await findPublicPlan(tx, payload.planId);
          // Taken meanwhile (another sign-up, an admin): the same answer, and the rollback leaves nothing behind.
          if (!plan || (await repo.findUserByEmail(tx, request.email))) throw fail('ERR_SIGNUP_TOKEN_INVALID', 'token');
          const tenant = await insertTenant(tx, {
            name: payload.name,
            status: 'active',
            identity: payload.cpfCnpj,
            phone: payload.mobilePhone,
            maxUsers: plan.users,
            maxConnections: plan.connections,
            trial: plan.trial,
            trialPeriod: plan.trialPeriod,
            planId: plan.id,
          });
          await signups.setTenantDueDate(tx, tenant.id, dueDateOf(plan));
          await insertDefaultSettings(tx, tenant.id);
          const created = await repo.insertUserWithLink(tx, {
            tenantId: tenant.id,
            name: payload.userName,
            email: request.email,
            profile: 'admin',
            passwordHash: payload.passwordHash,
          });
          return { user: created, issued: await issueRefreshToken(tx, created, config.refreshTokenTtl) };
        });
        return { body: await loginResponse(tokens, user, issued), refreshToken: issued.refreshToken };
      } catch (error) {
        if (isUniqueViolation(error)) throw fail('ERR_SIGNUP_TOKEN_INVALID', 'token');
        throw error;
      }
    },
  };
}
