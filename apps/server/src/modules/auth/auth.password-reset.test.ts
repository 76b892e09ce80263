import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDefinition } from '../../platform/jobs/queue.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { SEND_PASSWORD_RESET_JOB } from './auth.jobs.js';
import { PASSWORD_RESET_PER_IP } from './auth.password-reset.service.js';

let t: TestApp;
let sendJob: JobDefinition<never>;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://app.example.com' });
  sendJob = t.jobDefinitions.find((d) => d.name === SEND_PASSWORD_RESET_JOB)!;
});
afterAll(async () => t.close());

let ipCounter = 0;
const newIp = () => `10.4.0.${++ipCounter}`;

const requestReset = (email: string, remoteAddress = newIp()) =>
  t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email }, remoteAddress });
const reset = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/reset-password/', payload: { token, password } });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: newIp() });

/** Requests a reset, runs the e-mail job and returns the token from the link it sent. */
async function resetTokenFor(email: string): Promise<string> {
  const before = t.sent.length;
  expect((await requestReset(email)).statusCode).toBe(204);
  expect(await t.jobs.runPending(sendJob)).toBe(1);
  const mail = t.sent.at(-1)!;
  expect(t.sent.length).toBe(before + 1);
  const link = /https:\/\/app\.example\.com\/#\/reset\/(\S+)/.exec(mail.text);
  expect(link).not.toBeNull();
  return link![1]!;
}

describe('password reset', () => {
  it('answers 204 for an unknown address, and sends nothing', async () => {
    const before = t.sent.length;
    const res = await requestReset('nobody-here@test.local');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.jobs.runPending(sendJob)).toBe(0);
    expect(t.sent.length).toBe(before);
  });

  it('mails a link, resets with it once, and then only the new password works', async () => {
    const user = await t.createUser({ tenantId: 1, name: 'Bia' });
    const session = await login(user.email, user.password);
    const cookie = session.cookies.find((c) => c.name === 'jrt')!.value;

    const token = await resetTokenFor(` ${user.email.toUpperCase()}`);
    const mail = t.sent.at(-1)!;
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toContain('Redefinição de senha');
    expect(mail.subject).toContain('Password reset');
    expect(mail.text).toContain('Olá, Bia.');
    expect(mail.text).toContain('Hello, Bia.');
    expect(token.startsWith('1.')).toBe(true);
    const stored = await t.database.executeSql('select token_hash from password_reset_tokens where user_id = $1', [
      user.id,
    ]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.token_hash).not.toBe(token);

    expect((await reset(token, 'New#Passw0rd')).statusCode).toBe(204);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'New#Passw0rd')).statusCode).toBe(200);

    const again = await reset(token, 'Other#Passw0rd');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'ERR_INVALID_RESET_TOKEN', field: 'token' });

    // Sessions from before the reset are over; token_version moved on.
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: cookie } });
    expect(refresh.statusCode).toBe(401);
    const { rows } = await t.database.executeSql('select token_version from users where id = $1', [user.id]);
    expect(rows[0]?.token_version).toBe(1);
  });

  it('refuses a weak password and keeps the token usable', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const token = await resetTokenFor(user.email);
    for (const weak of ['nodigits!!', 'NoSymbol123', '12345678!']) {
      const res = await reset(token, weak);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD' });
    }
    expect((await reset(token, 'Sh0rt!')).statusCode).toBe(400);
    expect((await reset(token, 'Strong#Pass1')).statusCode).toBe(204);
  });

  it('refuses unknown, malformed and expired tokens', async () => {
    expect((await reset('1.abcdefghijklmnopqrstuvwxyz0123456789', 'Strong#Pass1')).json()).toEqual({
      error: 'ERR_INVALID_RESET_TOKEN',
      field: 'token',
    });
    expect((await reset('not-a-token-at-all', 'Strong#Pass1')).statusCode).toBe(400);
    const user = await t.createUser({ tenantId: 1 });
    const token = await resetTokenFor(user.email);
    await t.database.executeSql(
      `update password_reset_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [user.id],
    );
    expect((await reset(token, 'Strong#Pass1')).statusCode).toBe(400);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('works for users of other tenants, and a reset invalidates the older links', async () => {
    const tenantId = await t.createTenant();
    const user = await t.createUser({ tenantId });
    const older = await resetTokenFor(user.email);
    const newer = await resetTokenFor(user.email);
    expect(newer.startsWith(`${tenantId}.`)).toBe(true);
    expect((await reset(newer, 'Strong#Pass1')).statusCode).toBe(204);
    expect((await reset(older, 'Strong#Pass2')).statusCode).toBe(400);
  });

  it('does not send a link that was used before the job ran', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const token = await resetTokenFor(user.email);
    const before = t.sent.length;
    expect((await reset(token, 'Strong#Pass1')).statusCode).toBe(204);
    await t.platform.jobs.enqueue(sendJob as never, { tenantId: 1, userId: user.id, token } as never);
    expect(await t.jobs.runPending(sendJob)).toBe(1);
    expect(t.sent.length).toBe(before);
  });

  it('limits requests per e-mail: the 6th within a minute answers 429', async () => {
    const user = await t.createUser({ tenantId: 1 });
    for (let i = 0; i < 5; i += 1) expect((await requestReset(user.email)).statusCode).toBe(204);
    const sixth = await requestReset(user.email);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ error: 'ERR_LIMIT_MAX' });
    expect(await t.jobs.runPending(sendJob)).toBe(5);
  });

  it('limits requests per IP address over every e-mail: past the cap 429, no mail; other addresses are not affected', async () => {
    const users = [];
    for (let i = 0; i <= PASSWORD_RESET_PER_IP.max; i += 1) users.push(await t.createUser({ tenantId: 1 }));
    const ip = '10.4.9.9';
    for (const user of users.slice(0, PASSWORD_RESET_PER_IP.max)) {
      expect((await requestReset(user.email, ip)).statusCode).toBe(204);
    }
    expect(await t.jobs.runPending(sendJob)).toBe(PASSWORD_RESET_PER_IP.max);
    const refused = await requestReset(users.at(-1)!.email, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'ERR_LIMIT_MAX' });
    expect(await t.jobs.runPending(sendJob)).toBe(0);
    // The refused address spent nothing of that e-mail's budget: its owner asks from elsewhere.
    expect((await requestReset(users.at(-1)!.email)).statusCode).toBe(204);
    expect(await t.jobs.runPending(sendJob)).toBe(1);
  });
});
