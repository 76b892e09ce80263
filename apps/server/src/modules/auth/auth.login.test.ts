import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { queryRows } from '../../platform/db/client.js';
import { LOGIN_PER_IP_MAX } from './auth.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let ipCounter = 0;
/** Each test logs in from its own address, so the per-IP limit only bites where a test wants it to. */
const newIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const login = (email: string, password: string, remoteAddress = newIp()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password }, remoteAddress });

describe('POST /api/auth/login', () => {
  it('answers exactly the login fields, sets the refresh cookie and records the login time', async () => {
    const user = await t.createUser({ session: false, tenantId: 1, profile: 'admin', name: 'Ana Admin' });
    const res = await login(`  ${user.email.toUpperCase()} `, user.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'blockWavoip',
        'configs',
        'email',
        'profile',
        'queues',
        'tenantId',
        'token',
        'userId',
        'username',
        'whatsappAllowed',
      ].sort(),
    );
    expect(body).toMatchObject({
      username: 'Ana Admin',
      email: user.email,
      profile: 'admin',
      userId: user.id,
      tenantId: 1,
      queues: [],
      whatsappAllowed: [],
      blockWavoip: false,
      configs: { isDark: false },
    });
    const claims = await t.platform.tokens.verifyAccess(body.token);
    expect(claims).toMatchObject({ userId: user.id, tenantId: 1, profile: 'admin', tokenVersion: 0 });

    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^1\.[A-Za-z0-9_-]{40,}$/);

    const { rows } = await t.database.executeSql('select last_login_at from users where id = $1', [user.id]);
    expect(rows[0]?.last_login_at).not.toBeNull();
    const stored = await t.database.executeSql('select token_hash from refresh_tokens where user_id = $1', [user.id]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.token_hash).not.toBe(cookie?.value);
  });

  it('logs the seeded superadmin in', async () => {
    const res = await login(t.seed.email, t.seed.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: 'superadmin', tenantId: 1 });
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const wrong = await login(user.email, 'Wrong#Pass1');
    const unknown = await login('nobody@test.local', 'Wrong#Pass1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.cookies).toHaveLength(0);
  });

  it('refuses an invalid body with the validation envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'not-an-email' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it("refuses the attacker's (e-mail, IP) pair after 5 failures, even with the right password, while the owner logs in from another address", async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const attacker = newIp();
    for (let i = 0; i < 5; i += 1) expect((await login(user.email, 'Wrong#Pass1', attacker)).statusCode).toBe(401);
    const sixth = await login(user.email, user.password, attacker);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ error: 'ERR_LIMIT_MAX' });
    // The e-mail in another case is the same pair.
    expect((await login(user.email.toUpperCase(), user.password, attacker)).statusCode).toBe(429);
    // The owner, from their own address, is not locked out while the attacker's pair is refused.
    expect((await login(user.email, user.password, newIp())).statusCode).toBe(200);
    expect((await login(user.email, 'Wrong#Pass1', attacker)).statusCode).toBe(429);
    // The attacker's address with another e-mail is still only under the per-IP cap.
    expect((await login('someone-else@test.local', 'Wrong#Pass1', attacker)).statusCode).toBe(401);
  });

  it('answers 429 on the 6th attempt from one address, whatever the e-mails', async () => {
    const ip = newIp();
    for (let i = 0; i < LOGIN_PER_IP_MAX; i += 1) {
      expect((await login(`x${i}@test.local`, 'Wrong#Pass1', ip)).statusCode).toBe(401);
    }
    expect((await login('x-last@test.local', 'Wrong#Pass1', ip)).statusCode).toBe(429);
    expect((await login('x6@test.local', 'Wrong#Pass1', newIp())).statusCode).toBe(401);
  });

  it('does not let a client pick its address with X-Forwarded-For (no proxy is trusted by default)', async () => {
    const ip = newIp();
    const spoofing = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: `xff${i}@test.local`, password: 'Wrong#Pass1' },
        remoteAddress: ip,
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
    for (let i = 0; i < LOGIN_PER_IP_MAX; i += 1) expect((await spoofing(i)).statusCode).toBe(401);
    expect((await spoofing(LOGIN_PER_IP_MAX)).statusCode).toBe(429);
  });

  it("clears the pair's failures after a successful login", async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const ip = newIp();
    for (let i = 0; i < 4; i += 1) await login(user.email, 'Wrong#Pass1', ip);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await login(user.email, 'Wrong#Pass1', ip)).statusCode).toBe(401);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(429);
  });

  it('refuses the users of an inactive tenant with 403 ERR_TENANT_INACTIVE', async () => {
    const tenantId = await t.createTenant({ status: 'inactive' });
    const user = await t.createUser({ session: false, tenantId, profile: 'admin' });
    const res = await login(user.email, user.password);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_TENANT_INACTIVE' });
    const { rows } = await t.database.executeSql('select count(*)::int as n from refresh_tokens where user_id = $1', [
      user.id,
    ]);
    expect(rows[0]?.n).toBe(0);
  });

  it('accepts the reference client body (extra fields) and a "Bearer null" header', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { authorization: 'Bearer null' },
      payload: { email: user.email, password: user.password, remember: true },
      remoteAddress: newIp(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('keeps the stored hash argon2id', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const rows = await queryRows<{ password_hash: string }>(
      t.platform.db,
      sql`select password_hash from users where id = ${user.id}`,
    );
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
  });
});
