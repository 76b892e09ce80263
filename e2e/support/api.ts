/** Thin HTTP helpers for arranging data through the public API (never for what a spec asserts in the UI). */
import type { CaptchaChallenge, LoginResponse, PlanDto, Profile, UserDto } from '@conversa/shared';
import { answerCaptcha } from './captcha.js';
import type { E2eContext } from './context.js';
import { strongPassword, uniqueEmail } from './data.js';

export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} -> ${status} ${body.slice(0, 500)}`);
  }
}

export async function apiRequest<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(method, path, response.status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** POST /api/auth/login/ with the captcha answered from the server secret. */
export async function loginThroughApi(
  baseUrl: string,
  captchaSecret: string,
  email: string,
  password: string,
): Promise<LoginResponse> {
  const challenge = await apiRequest<CaptchaChallenge>(baseUrl, 'GET', '/auth/captcha');
  const captcha = challenge.enabled ? answerCaptcha(captchaSecret, challenge) : undefined;
  return apiRequest<LoginResponse>(baseUrl, 'POST', '/auth/login/', { body: { email, password, captcha } });
}

export interface NewUser {
  name: string;
  email: string;
  password: string;
  profile: Profile;
}

export function createUser(baseUrl: string, token: string, user: NewUser): Promise<UserDto> {
  return apiRequest<UserDto>(baseUrl, 'POST', '/users', { token, body: user });
}

/** A user of tenant 1 made by the superadmin, with a unique email (`emailPrefix`-…) and a strong password unless told. */
export async function createTestUser(
  e2e: E2eContext,
  user: { emailPrefix: string; name: string; profile: Profile; password?: string },
): Promise<NewUser> {
  const created: NewUser = {
    name: user.name,
    email: uniqueEmail(user.emailPrefix),
    password: user.password ?? strongPassword(),
    profile: user.profile,
  };
  await createUser(e2e.baseUrl, e2e.superadminToken, created);
  return created;
}

export async function listPlans(baseUrl: string): Promise<PlanDto[]> {
  const answer = await apiRequest<{ plan: PlanDto[] }>(baseUrl, 'GET', '/plan/');
  return answer.plan;
}
