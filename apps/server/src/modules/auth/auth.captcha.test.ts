import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captchaChallengeSchema } from '@conversa/shared';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { CAPTCHA_HEIGHT, CAPTCHA_PIECE_SIZE, CAPTCHA_WIDTH, openCaptcha, sealCaptcha } from './auth.captcha.js';

let t: TestApp;
let user: Awaited<ReturnType<TestApp['createUser']>>;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_CAPTCHA: 'true' });
});
afterAll(async () => t.close());
// A fresh user per test: every attempt counts against its e-mail's limit.
beforeEach(async () => {
  user = await t.createUser({ tenantId: 1 });
});

let ipCounter = 0;
const newIp = () => `10.2.0.${++ipCounter}`;

async function challenge() {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/captcha' });
  expect(res.statusCode).toBe(200);
  return captchaChallengeSchema.parse(res.json());
}

/** Reads the gap position the way only the server can: tests hold the secret. */
const targetOf = (token: string) => openCaptcha(t.platform.secrets.captchaSecret, token)!.x;

const login = (captcha?: { token: string; x: number }, password = user.password) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password, ...(captcha ? { captcha } : {}) },
    remoteAddress: newIp(),
  });

describe('login captcha (LOGIN_CAPTCHA=true)', () => {
  it('serves a slider puzzle whose answer the client cannot read', async () => {
    const c = await challenge();
    expect(c).toMatchObject({
      enabled: true,
      width: CAPTCHA_WIDTH,
      height: CAPTCHA_HEIGHT,
      pieceSize: CAPTCHA_PIECE_SIZE,
    });
    expect(c.background).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(c.piece).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(c.pieceY).toBeGreaterThanOrEqual(0);
    expect(c.pieceY).toBeLessThanOrEqual(CAPTCHA_HEIGHT - CAPTCHA_PIECE_SIZE);
    const x = targetOf(c.token);
    expect(x).toBeGreaterThanOrEqual(CAPTCHA_PIECE_SIZE);
    expect(x).toBeLessThanOrEqual(CAPTCHA_WIDTH - CAPTCHA_PIECE_SIZE * 1.5);
    expect(Buffer.from(c.token, 'base64url').toString('latin1')).not.toContain('"x"');
    expect(openCaptcha('another secret', c.token)).toBeNull();
    const background = Buffer.from(c.background.split(',')[1]!, 'base64').toString();
    expect(background).toContain(`<rect x="${x}" y="${c.pieceY}"`);
  });

  it('logs in with the piece dropped within 6 px of the gap', async () => {
    const c = await challenge();
    const res = await login({ token: c.token, x: targetOf(c.token) + 5 });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong position', async () => {
    const c = await challenge();
    const res = await login({ token: c.token, x: targetOf(c.token) + 7 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_CAPTCHA_INVALID', field: 'captcha' });
  });

  it('refuses a challenge used twice, even when the first answer was wrong', async () => {
    const c = await challenge();
    const x = targetOf(c.token);
    expect((await login({ token: c.token, x })).statusCode).toBe(200);
    expect((await login({ token: c.token, x })).json()).toMatchObject({ error: 'ERR_CAPTCHA_INVALID' });

    const d = await challenge();
    expect((await login({ token: d.token, x: targetOf(d.token) + 40 })).statusCode).toBe(400);
    expect((await login({ token: d.token, x: targetOf(d.token) })).statusCode).toBe(400);
  });

  it('refuses a missing, forged or expired captcha', async () => {
    expect((await login()).json()).toEqual({ error: 'ERR_CAPTCHA_INVALID', field: 'captcha' });
    expect((await login({ token: 'abc', x: 10 })).statusCode).toBe(400);
    user = await t.createUser({ tenantId: 1 });
    const forged = sealCaptcha('not the server secret', { x: 100, nonce: 'n1', exp: Date.now() + 60_000 });
    expect((await login({ token: forged, x: 100 })).statusCode).toBe(400);
    const expired = sealCaptcha(t.platform.secrets.captchaSecret, { x: 100, nonce: 'n2', exp: Date.now() - 1 });
    expect((await login({ token: expired, x: 100 })).statusCode).toBe(400);
  });

  it('checks the captcha before the password', async () => {
    const res = await login(undefined, 'Wrong#Pass1');
    expect(res.json()).toMatchObject({ error: 'ERR_CAPTCHA_INVALID' });
    const c = await challenge();
    expect((await login({ token: c.token, x: targetOf(c.token) }, 'Wrong#Pass1')).statusCode).toBe(401);
  });
});

describe('login captcha (LOGIN_CAPTCHA=false)', () => {
  it('announces a disabled captcha and logs in without one', async () => {
    const off = await createTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/api/auth/captcha/' });
      expect(res.json()).toEqual({
        enabled: false,
        token: '',
        background: '',
        piece: '',
        width: 0,
        height: 0,
        pieceSize: 0,
        pieceY: 0,
      });
      const other = await off.createUser({ tenantId: 1 });
      const login = await off.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: other.email, password: other.password },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});
