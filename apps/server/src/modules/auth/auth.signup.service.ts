/**
 * Self sign-up (product-spec §2 /signup): a new tenant on a public plan, its default settings and its admin user,
 * in one transaction; the new admin is then logged in like after a login.
 */
import type { z } from 'zod';
import { isValidCpfCnpj, type signupInputSchema } from '@conversa/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../platform/db/client.js';
import { withSystem } from '../../platform/db/tenancy.js';
import { hashPassword } from '../../platform/crypto.js';
import { fail } from '../../platform/http/errors.js';
import type { TokenService } from '../../platform/http/tokens.js';
import { insertDefaultSettings } from '../settings/index.js';
import { findPublicPlan, insertTenant } from '../tenants/index.js';
import { createMemoryRateLimiter, type RateLimiter } from './auth.rate-limiter.js';
import * as repo from './auth.repository.js';
import type { CallerContext } from './auth.service.js';
import { issueRefreshToken, loginResponse, type Session } from './auth.sessions.js';

export type SignupInput = z.output<typeof signupInputSchema>;

export const SIGNUP_RATE_PER_IP = 10;
const SIGNUP_WINDOW_MS = 60_000;

export interface SignupDeps {
  db: Database;
  tokens: TokenService;
  config: Pick<Config, 'refreshTokenTtl'>;
  byIp?: RateLimiter;
}

export interface SignupService {
  signup(caller: CallerContext, input: SignupInput): Promise<Session>;
}

/** The unique index on lower(email) decides a race between two sign-ups with one address. */
function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | undefined)?.cause) === '23505';
}

export function createSignupService(deps: SignupDeps): SignupService {
  const { db, tokens, config } = deps;
  const byIp = deps.byIp ?? createMemoryRateLimiter({ max: SIGNUP_RATE_PER_IP, windowMs: SIGNUP_WINDOW_MS });

  return {
    async signup(caller, input) {
      if (!(await byIp.hit(caller.ip))) throw fail('ERR_LIMIT_MAX');
      if (!isValidCpfCnpj(input.cpfCnpj)) throw fail('ERR_INVALID_CPF_CNPJ', 'cpfCnpj');
      const passwordHash = await hashPassword(input.password);
      try {
        const { user, refreshToken } = await withSystem(db, 'auth.signup', async (tx) => {
          const plan = await findPublicPlan(tx, input.planId);
          if (!plan) throw fail('ERR_NO_PLAN_FOUND', 'planId');
          if (await repo.findUserByEmail(tx, input.email)) throw fail('ERR_EMAIL_ALREADY_EXISTS', 'email');
          const tenant = await insertTenant(tx, {
            name: input.name,
            status: 'active',
            identity: input.cpfCnpj.replace(/\D/g, ''),
            phone: input.mobilePhone,
            maxUsers: plan.users,
            maxConnections: plan.connections,
            trial: plan.trial,
            trialPeriod: plan.trialPeriod,
            planId: plan.id,
          });
          await insertDefaultSettings(tx, tenant.id);
          const created = await repo.insertUserWithLink(tx, {
            tenantId: tenant.id,
            name: input.userName ?? input.name,
            email: input.email,
            profile: 'admin',
            passwordHash,
          });
          return { user: created, refreshToken: await issueRefreshToken(tx, created, config.refreshTokenTtl) };
        });
        return { body: await loginResponse(tokens, user), refreshToken };
      } catch (error) {
        if (isUniqueViolation(error)) throw fail('ERR_EMAIL_ALREADY_EXISTS', 'email');
        throw error;
      }
    },
  };
}
