/**
 * The harness's assumption, checked: the server counts login attempts per client address (its per-IP budget a
 * minute), and each browser session reaches it from an address of its own (support/client-address.ts).
 */
import { afterEach, expect, it } from 'vitest';
import { LOGIN_PER_IP_MAX } from '../../apps/server/src/modules/auth/auth.service.js';
import { e2eContext } from '../support/context.js';
import { openClientAddress, type ClientAddress } from '../support/client-address.js';
import { uniqueEmail } from '../support/data.js';

const ctx = e2eContext();
const opened: ClientAddress[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function attemptLogin(baseUrl: string): Promise<{ status: number; error: string }> {
  const response = await fetch(`${baseUrl}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // A fresh unknown e-mail each time, so only the per-address limit can trip.
    body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'Wrong#Pass1', captcha: { token: 'x', x: 1 } }),
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error ?? '' };
}

it('limits login attempts per client address, and sessions get distinct addresses', async () => {
  const first = await openClientAddress(ctx.port);
  const second = await openClientAddress(ctx.port);
  opened.push(first, second);
  expect(first.ip).not.toBe(second.ip);

  const health = await fetch(`${first.baseUrl}/api/health`);
  expect(health.status).toBe(200);

  const answers = [];
  for (let i = 0; i <= LOGIN_PER_IP_MAX; i += 1) answers.push(await attemptLogin(first.baseUrl));
  expect(answers.slice(0, LOGIN_PER_IP_MAX).filter((answer) => answer.error === 'ERR_LIMIT_MAX')).toEqual([]);
  expect(answers[LOGIN_PER_IP_MAX]).toEqual({ status: 429, error: 'ERR_LIMIT_MAX' });

  const other = await attemptLogin(second.baseUrl);
  expect(other.error).not.toBe('ERR_LIMIT_MAX');
});
