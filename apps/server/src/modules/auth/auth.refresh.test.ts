import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let ipCounter = 0;
const newIp = () => `10.3.0.${++ipCounter}`;

async function loginCookie(user: TestUser): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
    remoteAddress: newIp(),
  });
  expect(res.statusCode).toBe(200);
  return res.cookies.find((c) => c.name === 'jrt')!.value;
}

const refresh = (jrt?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', ...(jrt ? { cookies: { jrt } } : {}) });

const newCookieOf = (res: Awaited<ReturnType<typeof refresh>>) => res.cookies.find((c) => c.name === 'jrt')?.value;

/** Moves a token's revocation back in time, past the grace interval for concurrent refreshes. */
const ageRevocation = (userId: number) =>
  t.database.executeSql(
    `update refresh_tokens set revoked_at = now() - interval '1 minute' where user_id = $1 and revoked_at is not null`,
    [userId],
  );

const liveTokens = async (userId: number) =>
  (
    await t.database.executeSql(
      'select count(*)::int as n from refresh_tokens where user_id = $1 and revoked_at is null',
      [userId],
    )
  ).rows[0]?.n;

describe('POST /api/auth/refresh_token', () => {
  it('rotates: a new access token and a new cookie, the old token revoked, same family', async () => {
    const user = await t.createUser({ session: false, tenantId: 1, profile: 'admin' });
    const first = await loginCookie(user);
    const res = await refresh(first);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['token']);
    const claims = await t.platform.tokens.verifyAccess(res.json().token);
    expect(claims).toMatchObject({ userId: user.id, tenantId: 1, profile: 'admin' });
    const second = newCookieOf(res);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(res.cookies.find((c) => c.name === 'jrt')).toMatchObject({ path: '/api/auth', httpOnly: true });
    const { rows } = await t.database.executeSql(
      'select count(distinct family_id)::int as families, count(*)::int as n from refresh_tokens where user_id = $1',
      [user.id],
    );
    expect(rows[0]).toEqual({ families: 1, n: 2 });
    expect(await liveTokens(user.id)).toBe(1);
    expect((await refresh(second)).statusCode).toBe(200);
  });

  it('treats a rotated token presented again as theft: the whole family is revoked', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const first = await loginCookie(user);
    const second = newCookieOf(await refresh(first))!;
    await ageRevocation(user.id);
    const replay = await refresh(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'ERR_INVALID_TOKEN' });
    expect(await liveTokens(user.id)).toBe(0);
    expect((await refresh(second)).statusCode).toBe(401);
  });

  it('answers concurrent refreshes with one cookie: the late one gets an access token only', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const first = await loginCookie(user);
    const winner = await refresh(first);
    const late = await refresh(first);
    expect(late.statusCode).toBe(200);
    expect(late.json().token).toEqual(expect.any(String));
    expect(newCookieOf(late)).toBeUndefined();
    expect(await liveTokens(user.id)).toBe(1);
    expect((await refresh(newCookieOf(winner))).statusCode).toBe(200);
  });

  it('answers 401 without a cookie, with an unknown or malformed one, and for an expired token', async () => {
    expect((await refresh()).json()).toEqual({ error: 'ERR_INVALID_TOKEN' });
    expect((await refresh('1.abcdefghijklmnopqrstuvwxyz0123456789')).statusCode).toBe(401);
    expect((await refresh('garbage')).statusCode).toBe(401);
    expect((await refresh('999999.abcdefghijklmnopqrstuvwxyz0123456789')).statusCode).toBe(401);
    const user = await t.createUser({ session: false, tenantId: 1 });
    const cookie = await loginCookie(user);
    await t.database.executeSql(
      `update refresh_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [user.id],
    );
    expect((await refresh(cookie)).statusCode).toBe(401);
  });

  it('ends the session when the password changed since (token_version bumped)', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const cookie = await loginCookie(user);
    await t.database.executeSql('update users set token_version = token_version + 1 where id = $1', [user.id]);
    expect((await refresh(cookie)).statusCode).toBe(401);
    expect(await liveTokens(user.id)).toBe(0);
  });

  it('answers 403 ERR_TENANT_INACTIVE once the tenant is deactivated', async () => {
    const tenantId = await t.createTenant();
    const user = await t.createUser({ session: false, tenantId });
    const cookie = await loginCookie(user);
    await t.database.executeSql(`update tenants set status = 'inactive' where id = $1`, [tenantId]);
    const res = await refresh(cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_TENANT_INACTIVE' });
  });

  it('never accepts another tenant as the cookie prefix', async () => {
    const tenantId = await t.createTenant();
    const user = await t.createUser({ session: false, tenantId });
    const cookie = await loginCookie(user);
    const swapped = cookie.replace(/^\d+\./, '1.');
    expect((await refresh(swapped)).statusCode).toBe(401);
    expect((await refresh(cookie)).statusCode).toBe(200);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the family, clears the cookie and answers 204, even with an expired access token', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const first = await loginCookie(user);
    const second = newCookieOf(await refresh(first))!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      headers: { authorization: 'Bearer expired.or.garbage' },
      cookies: { jrt: second },
      payload: { token: 'x', userId: user.id, username: 'whatever', queues: [] },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const cleared = res.cookies.find((c) => c.name === 'jrt');
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/api/auth');
    expect(await liveTokens(user.id)).toBe(0);
    expect((await refresh(second)).statusCode).toBe(401);
  });

  it('answers 204 without a cookie and leaves other sessions alone', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const cookie = await loginCookie(user);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(res.statusCode).toBe(204);
    expect((await refresh(cookie)).statusCode).toBe(200);
  });
});
