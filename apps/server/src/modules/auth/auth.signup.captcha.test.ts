/** Sign-up needs the same server-checked slider captcha as the login (LOGIN_CAPTCHA=true), before anything else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchaChallengeSchema, plansResponseSchema } from '@conversa/shared';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { openCaptcha } from './auth.captcha.js';

let t: TestApp;
let planId: number;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_CAPTCHA: 'true' });
  planId = plansResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/plan' })).json()).plan[0]!.id;
});
afterAll(async () => t.close());

let counter = 0;
async function challenge() {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/captcha' });
  const c = captchaChallengeSchema.parse(res.json());
  return { token: c.token, x: openCaptcha(t.platform.secrets.captchaSecret, c.token)!.x };
}
const signup = (captcha?: { token: string; x: number }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/signup',
    remoteAddress: `10.6.0.${++counter}`,
    payload: {
      name: 'Oficina Boa',
      cpfCnpj: '11.222.333/0001-81',
      email: `dono${counter}@oficina.test`,
      mobilePhone: '(11) 98765-4321',
      password: 'Forte#123',
      planId,
      ...(captcha ? { captcha } : {}),
    },
  });
const requests = async () =>
  (await t.database.executeSql('select count(*)::int as n from signup_requests', [])).rows[0]?.n as number;

describe('sign-up captcha', () => {
  it('refuses a missing, wrong or replayed answer, storing nothing', async () => {
    const missing = await signup();
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'ERR_CAPTCHA_INVALID', field: 'captcha' });
    const c = await challenge();
    const wrong = await signup({ token: c.token, x: c.x + 40 });
    expect(wrong.json()).toEqual({ error: 'ERR_CAPTCHA_INVALID', field: 'captcha' });
    // The challenge was burnt by the wrong try: even the right position no longer passes.
    expect((await signup(c)).json()).toEqual({ error: 'ERR_CAPTCHA_INVALID', field: 'captcha' });
    expect(await requests()).toBe(0);
  });

  it('accepts the right answer once', async () => {
    const c = await challenge();
    const res = await signup(c);
    expect(res.statusCode, res.body).toBe(202);
    expect(await requests()).toBe(1);
    expect((await signup(c)).statusCode).toBe(400);
  });
});
