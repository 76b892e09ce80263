import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plansResponseSchema } from '@conversa/shared';
import { createTestApp, type TestApp } from '../../test/harness.js';

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

describe('POST /api/signup', () => {
  it('creates the tenant, its settings and its admin, and logs the admin in', async () => {
    const body = signupBody({ userName: 'Joana Dono', email: '  Joana@Padaria.TEST ' });
    const res = await signup(body);
    expect(res.statusCode).toBe(201);
    const login = res.json();
    expect(login).toMatchObject({
      username: 'Joana Dono',
      email: 'joana@padaria.test',
      profile: 'admin',
      queues: [],
      whatsappAllowed: [],
    });
    expect(login.tenantId).not.toBe(1);
    expect(res.cookies.find((c) => c.name === 'jrt')?.value).toMatch(new RegExp(`^${login.tenantId}\\.`));

    const own = await t.app.inject({
      method: 'GET',
      url: '/api/tenants/undefined',
      headers: { authorization: `Bearer ${login.token}` },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual([
      {
        id: login.tenantId,
        status: 'active',
        name: 'Padaria Pão Quente',
        identity: '11222333000181',
        maxUsers: 10,
        maxConnections: 3,
        trial: 'enabled',
        trialPeriod: 7,
        hideUnoficial: false,
        createdAt: expect.any(String),
      },
    ]);
    const settings = await t.database.executeSql('select count(*)::int as n from settings where tenant_id = $1', [
      login.tenantId,
    ]);
    expect(settings.rows[0]?.n).toBeGreaterThan(0);
    const rows = await t.database.executeSql(
      `select t.phone, t.plan_id, u.name, (select count(*)::int from user_tenants l where l.user_id = u.id) as links
         from tenants t join users u on u.tenant_id = t.id where t.id = $1`,
      [login.tenantId],
    );
    expect(rows.rows).toEqual([{ phone: '11987654321', plan_id: planId, name: 'Joana Dono', links: 1 }]);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'joana@padaria.test', password: 'Forte#123' },
      remoteAddress: '10.5.1.1',
    });
    expect(again.statusCode).toBe(200);
  });

  it('names the admin after the company when no userName is given', async () => {
    const res = await signup(signupBody({ cpfCnpj: '529.982.247-25' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().username).toBe('Padaria Pão Quente');
  });

  it('refuses an invalid CPF/CNPJ', async () => {
    const res = await signup(signupBody({ cpfCnpj: '123.456.789-00' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_INVALID_CPF_CNPJ', field: 'cpfCnpj' });
  });

  it('refuses an e-mail already used, in any tenant, changing nothing', async () => {
    const count = async () =>
      (await t.database.executeSql('select count(*)::int as n from tenants', [])).rows[0]?.n as number;
    const before = await count();
    const res = await signup(signupBody({ email: t.seed.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS', field: 'email' });
    expect(await count()).toBe(before);
  });

  it('refuses a weak password', async () => {
    const res = await signup(signupBody({ password: 'semnumero!' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD' });
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
