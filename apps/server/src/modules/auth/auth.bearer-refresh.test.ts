/**
 * Cookie-less refresh (issue 23, client-contract §1): the family's clients on another origin keep only the access
 * token, so `POST /auth/refresh_token` and `/auth/logout` take the bearer (expired or not) when no `jrt` cookie comes.
 * A bearer refreshes once, like the refresh token it was issued with: rotation, the session's refresh lifetime, the
 * 10 s grace for parallel refreshes, and reuse of a rotated bearer ending the whole session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { createTokenService } from '../../platform/http/tokens.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let ipCounter = 0;
const newIp = () => `10.4.0.${++ipCounter}`;

/** Logs in as a cross-origin client does: it keeps the token of the answer and never sees the cookie again. */
async function loginBearer(user: TestUser): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { email: user.email, password: user.password },
    remoteAddress: newIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

const refresh = (bearer: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/refresh_token',
    headers: { authorization: `Bearer ${bearer}` },
    ...(cookie ? { cookies: { jrt: cookie } } : {}),
  });

const logout = (bearer: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/logout/',
    headers: { authorization: `Bearer ${bearer}` },
    payload: { token: bearer, username: 'x', userId: 1 },
  });

/** The same claims, signed with the server's key, already expired `agoSeconds` ago. */
async function expired(token: string, agoSeconds = 60): Promise<string> {
  const claims = decodeJwt(token);
  const signer = createTokenService(t.platform.secrets.jwtSecret, -agoSeconds);
  const again = await signer.signAccess({
    userId: Number(claims.sub),
    tenantId: Number(claims.tid),
    profile: claims.profile as TestUser['profile'],
    tokenVersion: Number(claims.ver),
    sessionId: claims.sid as string,
    refreshId: claims.rid as number,
  });
  await expect(t.platform.tokens.verifyAccess(again)).rejects.toMatchObject({ code: 'ERR_SESSION_EXPIRED' });
  return again;
}

const ridOf = (token: string) => decodeJwt(token).rid as number;

const liveTokens = async (userId: number) =>
  (
    await t.database.executeSql(
      'select count(*)::int as n from refresh_tokens where user_id = $1 and revoked_at is null',
      [userId],
    )
  ).rows[0]?.n;

/** Moves revocations back in time, past the grace interval for concurrent refreshes. */
const ageRevocation = (userId: number) =>
  t.database.executeSql(
    `update refresh_tokens set revoked_at = now() - interval '1 minute' where user_id = $1 and revoked_at is not null`,
    [userId],
  );

describe('POST /api/auth/refresh_token with only the bearer', () => {
  it('rotates the session with a valid bearer: { token } only, same session, the old bearer spent', async () => {
    const user = await t.createUser({ session: false, tenantId: 1, profile: 'user' });
    const first = await loginBearer(user);
    const res = await refresh(first);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ token: expect.any(String) });
    const next = res.json().token as string;
    expect(next).not.toBe(first);
    const claims = await t.platform.tokens.verifyAccess(next);
    expect(claims).toMatchObject({ userId: user.id, tenantId: 1, profile: 'user', sessionId: decodeJwt(first).sid });
    expect(claims.refreshId).not.toBe(ridOf(first));
    // One session (family): the bearer's refresh token revoked, a new one live.
    const { rows } = await t.database.executeSql(
      `select count(distinct family_id)::int as families, count(*)::int as n,
              count(*) filter (where revoked_at is null)::int as live,
              bool_or(id = $2 and revoked_at is not null) as spent
         from refresh_tokens where user_id = $1`,
      [user.id, ridOf(first)],
    );
    expect(rows[0]).toEqual({ families: 1, n: 2, live: 1, spent: true });
    // The new bearer works for the API and refreshes in turn.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/users/${user.id}`,
          headers: { authorization: `Bearer ${next}` },
        })
      ).statusCode,
    ).toBe(200);
    const third = await refresh(next);
    expect(third.statusCode, third.body).toBe(200);
    expect(ridOf(third.json().token)).not.toBe(claims.refreshId);
    // The first bearer, presented again after the grace interval, no longer refreshes.
    await ageRevocation(user.id);
    expect((await refresh(first)).statusCode).toBe(401);
  });

  it('refreshes with an expired bearer while the session lives', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const old = await expired(await loginBearer(user), 3600);
    const res = await refresh(old);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ token: expect.any(String) });
    await expect(t.platform.tokens.verifyAccess(res.json().token)).resolves.toMatchObject({ userId: user.id });
  });

  it('answers 401 for an expired bearer beyond the session refresh lifetime', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const old = await expired(await loginBearer(user));
    await t.database.executeSql(
      `update refresh_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [user.id],
    );
    const res = await refresh(old);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_INVALID_TOKEN' });
  });

  it('answers 401 after the session was logged out, with the cookie or with the bearer alone', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const token = await loginBearer(user);
    const res = await logout(token);
    expect(res.statusCode).toBe(204);
    expect(await liveTokens(user.id)).toBe(0);
    expect((await refresh(token)).json()).toEqual({ error: 'ERR_INVALID_TOKEN' });
    expect((await refresh(await expired(token))).statusCode).toBe(401);

    // A browser session logged out with its cookie: its bearer does not revive it either.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
      remoteAddress: newIp(),
    });
    const jrt = login.cookies.find((c) => c.name === 'jrt')!.value;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { jrt } });
    expect(out.statusCode).toBe(204);
    expect((await refresh(login.json().token)).statusCode).toBe(401);
  });

  it('a bearer logout ends only its own session', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const one = await loginBearer(user);
    const other = await loginBearer(user);
    expect((await logout(one)).statusCode).toBe(204);
    expect((await refresh(one)).statusCode).toBe(401);
    expect((await refresh(other)).statusCode).toBe(200);
  });

  it('detects a replayed bearer: 401, and the whole session is revoked like a reused refresh token', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const first = await loginBearer(user);
    const sessionId = decodeJwt(first).sid;
    const ended: unknown[] = [];
    const stop = t.platform.events.subscribe('auth.session_ended', (event) => void ended.push(event));
    try {
      const second = (await refresh(first)).json().token as string;
      await ageRevocation(user.id);
      const replay = await refresh(first);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ error: 'ERR_INVALID_TOKEN' });
      expect(await liveTokens(user.id)).toBe(0);
      expect((await refresh(second)).statusCode).toBe(401);
      expect(ended).toContainEqual({ tenantId: 1, userId: user.id, sessionId });
    } finally {
      stop();
    }
  });

  it('gives parallel refreshes with one bearer an access token each, bound to the live rotation', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const first = await loginBearer(user);
    const winner = await refresh(first);
    const late = await refresh(first);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toEqual({ token: expect.any(String) });
    expect(ridOf(late.json().token)).toBe(ridOf(winner.json().token));
    expect(await liveTokens(user.id)).toBe(1);
    // Whichever answer the client kept, it refreshes later.
    expect((await refresh(late.json().token)).statusCode).toBe(200);
  });

  it('answers 401 for a forged or tampered bearer, a bearer of no session, and Bearer null', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const token = await loginBearer(user);
    const claims = decodeJwt(token);
    const forged = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(64)));
    const [header, , signature] = token.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: String(user.id + 1) })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${token.split('.')[1]}.`;
    for (const bad of [forged, tampered, unsigned, 'null', 'garbage']) {
      const res = await refresh(bad);
      expect(res.statusCode, bad).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_INVALID_TOKEN' });
    }
    // Signed by us but naming no refresh token (no `rid`): nothing to rotate.
    const sessionOnly = await t.createUser({ tenantId: 1 });
    expect((await refresh(sessionOnly.token)).statusCode).toBe(401);
    // The session is untouched by all of that.
    expect((await refresh(token)).statusCode).toBe(200);
  });

  it('follows the session rules: a password change ends it, an inactive tenant answers 403', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const token = await loginBearer(user);
    await t.database.executeSql('update users set token_version = token_version + 1 where id = $1', [user.id]);
    expect((await refresh(token)).statusCode).toBe(401);
    expect(await liveTokens(user.id)).toBe(0);

    const tenantId = await t.createTenant();
    const member = await t.createUser({ session: false, tenantId });
    const mine = await loginBearer(member);
    await t.database.executeSql(`update tenants set status = 'inactive' where id = $1`, [tenantId]);
    const res = await refresh(mine);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_TENANT_INACTIVE' });
  });

  it('lets the cookie win when both come', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const bearer = await loginBearer(user);
    // A dead cookie is not rescued by a live bearer.
    const dead = await refresh(bearer, '1.abcdefghijklmnopqrstuvwxyz0123456789');
    expect(dead.statusCode).toBe(401);
    // A live cookie of another session rotates that session; the bearer's stays as it was.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
      remoteAddress: newIp(),
    });
    const jrt = login.cookies.find((c) => c.name === 'jrt')!.value;
    const res = await refresh(bearer, jrt);
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json().token).sid).toBe(decodeJwt(login.json().token).sid);
    expect(res.cookies.find((c) => c.name === 'jrt')?.value).toEqual(expect.any(String));
    const { rows } = await t.database.executeSql('select revoked_at from refresh_tokens where id = $1', [
      ridOf(bearer),
    ]);
    expect(rows[0]).toEqual({ revoked_at: null });
    expect((await refresh(bearer)).statusCode).toBe(200);
  });
});
