import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plansResponseSchema } from '@conversa/shared';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { CLEANUP_EXPIRED_TOKENS_JOB, SEND_SIGNUP_MAIL_JOB } from './auth.jobs.js';

let t: TestApp;
let planId: number;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/plan/' });
  planId = plansResponseSchema.parse(res.json()).plan[1]!.id;
});
afterAll(async () => t.close());

let counter = 0;
const signupBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Padaria Pão Quente',
  cpfCnpj: '11.222.333/0001-81',
  email: `owner${++counter}@padaria.test`,
  mobilePhone: '(11) 98765-4321',
  password: 'Forte#123',
  planId,
  ...overrides,
});
const signup = (body: Record<string, unknown>, remoteAddress = `10.5.0.${++counter}`) =>
  t.app.inject({ method: 'POST', url: '/api/signup', payload: body, remoteAddress });

describe('GET /api/plan', () => {
  it('lists the public plans by value, without a token', async () => {
    await t.database.executeSql(
      `insert into plans (name, value, connections, users, is_public) values ('Hidden', 1, 1, 1, false)`,
    );
    const res = await t.app.inject({ method: 'GET', url: '/api/plan', headers: { authorization: 'Bearer null' } });
    expect(res.statusCode).toBe(200);
    const { plan } = plansResponseSchema.parse(res.json());
    expect(plan.map((p) => p.name)).toEqual(['Start', 'Pro', 'Business']);
    expect(plan[0]).toEqual({
      id: expect.any(Number),
      name: 'Start',
      value: 99.9,
      connections: 1,
      users: 3,
      trial: 'enabled',
      trialPeriod: 7,
    });
  });
});

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name)!;
const count = async (table: string, where = 'true', params: unknown[] = []) =>
  (await t.database.executeSql(`select count(*)::int as n from ${table} where ${where}`, params)).rows[0]?.n as number;

/** Signs up, runs the e-mail job and returns the mail it sent. */
async function signupAndMail(body: Record<string, unknown>) {
  const res = await signup(body);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toEqual({ status: 'confirmation_sent' });
  const before = t.sent.length;
  expect(await t.jobs.runPending(job(SEND_SIGNUP_MAIL_JOB))).toBe(1);
  expect(t.sent.length).toBe(before + 1);
  return t.sent.at(-1)!;
}
const tokenOf = (text: string) => /#\/signup\/confirm\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
const confirm = (token: unknown) => t.app.inject({ method: 'POST', url: '/api/signup/confirm', payload: { token } });

describe('POST /api/signup', () => {
  it('answers 202 and mails a confirmation link to a new address, creating nothing yet', async () => {
    const tenants = await count('tenants');
    const users = await count('users');
    const body = signupBody({ email: '  Nova@Padaria.TEST ' });
    const mail = await signupAndMail(body);
    expect(mail.to).toBe('nova@padaria.test');
    const token = tokenOf(mail.text);
    expect(mail.text).toContain(`/#/signup/confirm/${token}`);
    expect(await count('tenants')).toBe(tenants);
    expect(await count('users')).toBe(users);
    const { rows } = await t.database.executeSql(
      `select token_hash, payload, expires_at from signup_requests where email = 'nova@padaria.test'`,
      [],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toBe(token);
    expect(JSON.stringify(rows[0]?.payload)).not.toContain('Forte#123');
    const hours = (new Date(rows[0]?.expires_at as string).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('answers a registered address exactly the same, and tells its owner instead', async () => {
    const tenants = await count('tenants');
    const requests = await count('signup_requests');
    const mail = await signupAndMail(signupBody({ email: t.seed.email.toUpperCase() }));
    expect(mail.to).toBe(t.seed.email.toLowerCase());
    expect(tokenOf(mail.text)).toBeUndefined();
    expect(mail.text).toContain('/#/login');
    expect(await count('tenants')).toBe(tenants);
    expect(await count('signup_requests')).toBe(requests);
  });

  it('refuses an invalid CPF/CNPJ', async () => {
    const res = await signup(signupBody({ cpfCnpj: '123.456.789-00' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_INVALID_CPF_CNPJ', field: 'cpfCnpj' });
  });

  it('refuses a weak password, a missing field, a bad e-mail', async () => {
    expect((await signup(signupBody({ password: 'semnumero!' }))).json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD' });
    expect((await signup(signupBody({ name: undefined }))).json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await signup(signupBody({ email: 'not-an-email' }))).json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await signup(signupBody({ planId: undefined }))).json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('refuses an unknown or hidden plan', async () => {
    const unknown = await signup(signupBody({ planId: 999_999 }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND', field: 'planId' });
    const hidden = await t.database.executeSql(`select id from plans where is_public = false limit 1`, []);
    expect((await signup(signupBody({ planId: hidden.rows[0]?.id }))).statusCode).toBe(404);
  });

  it('limits sign-ups to 10 a minute per address', async () => {
    const ip = '10.5.2.1';
    for (let i = 0; i < 10; i += 1) {
      expect((await signup(signupBody({ cpfCnpj: '123.456.789-00' }), ip)).statusCode).toBe(400);
    }
    const res = await signup(signupBody(), ip);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: 'ERR_LIMIT_MAX' });
  });
});

describe('POST /api/signup/confirm', () => {
  it('creates the tenant with the plan limits and trial due date, its admin, and logs the admin in', async () => {
    const plan = (await t.database.executeSql(`select * from plans where id = $1`, [planId])).rows[0] as {
      users: number;
      connections: number;
      trial: string;
      trial_period: number;
    };
    const token = tokenOf(
      (await signupAndMail(signupBody({ userName: 'Joana Dono', email: 'joana@padaria.test' }))).text,
    );
    const res = await confirm(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ username: 'Joana Dono', email: 'joana@padaria.test', profile: 'admin' });
    expect(res.cookies.find((c) => c.name === 'jrt')).toMatchObject({ path: '/api/auth', httpOnly: true });
    const { rows } = await t.database.executeSql(`select * from tenants where id = $1`, [res.json().tenantId]);
    const tenant = rows[0] as Record<string, unknown>;
    expect(tenant).toMatchObject({
      status: 'active',
      max_users: plan.users,
      max_connections: plan.connections,
      trial: plan.trial,
      identity: '11222333000181',
    });
    const days = plan.trial === 'enabled' ? plan.trial_period : 30;
    const dueIn = (new Date(tenant.due_date as string).getTime() - Date.now()) / 86_400_000;
    expect(dueIn).toBeGreaterThan(days - 0.01);
    expect(dueIn).toBeLessThanOrEqual(days);
    expect(await count('settings', 'tenant_id = $1', [res.json().tenantId])).toBeGreaterThan(0);
    // The token works once.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'ERR_SIGNUP_TOKEN_INVALID', field: 'token' });
    // The new admin logs in with the password of the form.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'joana@padaria.test', password: 'Forte#123' },
      remoteAddress: '10.5.9.1',
    });
    expect(login.statusCode).toBe(200);
  });

  it('never confirms a link twice, even once its company is gone', async () => {
    const token = tokenOf((await signupAndMail(signupBody({ email: 'duas-vezes@padaria.test' }))).text);
    const first = await confirm(token);
    expect(first.statusCode).toBe(200);
    await t.database.executeSql('delete from tenants where id = $1', [first.json().tenantId]);
    expect((await confirm(token)).json()).toEqual({ error: 'ERR_SIGNUP_TOKEN_INVALID', field: 'token' });
  });

  it('gives a paid plan 30 days', async () => {
    await t.database.executeSql(`update plans set trial = 'disabled' where id = $1`, [planId]);
    try {
      const token = tokenOf((await signupAndMail(signupBody())).text);
      const res = await confirm(token);
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await t.database.executeSql(`select due_date from tenants where id = $1`, [res.json().tenantId]);
      const dueIn = (new Date(rows[0]?.due_date as string).getTime() - Date.now()) / 86_400_000;
      expect(dueIn).toBeGreaterThan(29.99);
      expect(dueIn).toBeLessThanOrEqual(30);
    } finally {
      await t.database.executeSql(`update plans set trial = 'enabled' where id = $1`, [planId]);
    }
  });

  it('refuses an unknown, malformed or expired token, creating nothing', async () => {
    const token = tokenOf((await signupAndMail(signupBody())).text);
    await t.database.executeSql(`update signup_requests set expires_at = now() - interval '1 second'`, []);
    const tenants = await count('tenants');
    for (const value of [token, 'x'.repeat(43), 'short', undefined]) {
      const res = await confirm(value);
      expect(res.statusCode).toBe(400);
      expect(['ERR_SIGNUP_TOKEN_INVALID', 'ERR_VALIDATION']).toContain(res.json().error);
    }
    expect((await confirm(token)).json()).toEqual({ error: 'ERR_SIGNUP_TOKEN_INVALID', field: 'token' });
    expect(await count('tenants')).toBe(tenants);
  });

  it('refuses an address taken between sign-up and confirmation, creating nothing', async () => {
    const email = 'tomada@padaria.test';
    const token = tokenOf((await signupAndMail(signupBody({ email }))).text);
    const winner = tokenOf((await signupAndMail(signupBody({ email }))).text);
    expect((await confirm(winner)).statusCode).toBe(200);
    const tenants = await count('tenants');
    const res = await confirm(token);
    expect(res.json()).toEqual({ error: 'ERR_SIGNUP_TOKEN_INVALID', field: 'token' });
    expect(await count('tenants')).toBe(tenants);
    expect(await count('users', 'lower(email) = $1', [email])).toBe(1);
  });

  it('refuses the login of a trial tenant past its due date, like an inactive one', async () => {
    const token = tokenOf((await signupAndMail(signupBody({ email: 'vencida@padaria.test' }))).text);
    const res = await confirm(token);
    await t.database.executeSql(
      `update tenants set trial = 'enabled', due_date = now() - interval '1 minute' where id = $1`,
      [res.json().tenantId],
    );
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'vencida@padaria.test', password: 'Forte#123' },
      remoteAddress: '10.5.9.2',
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ error: 'ERR_TENANT_INACTIVE' });
  });

  it('removes expired and confirmed requests in the daily cleanup', async () => {
    await signupAndMail(signupBody({ email: 'limpeza@padaria.test' }));
    await t.database.executeSql(`update signup_requests set expires_at = now() - interval '1 second'`, []);
    const cleanup = job(CLEANUP_EXPIRED_TOKENS_JOB);
    await t.platform.jobs.enqueue(cleanup, {} as never);
    expect(await t.jobs.runPending(cleanup)).toBe(1);
    expect(await count('signup_requests')).toBe(0);
  });
});
