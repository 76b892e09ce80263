import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { CLEANUP_EXPIRED_TOKENS_JOB } from './auth.jobs.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const hash = () => crypto.randomBytes(16).toString('hex');

describe('auth.cleanup-expired-tokens', () => {
  it('is a daily cron job', () => {
    const job = t.jobDefinitions.find((d) => d.name === CLEANUP_EXPIRED_TOKENS_JOB);
    expect(job?.cron).toBe('15 3 * * *');
  });

  it('deletes dead refresh tokens, used or expired reset tokens and expired captcha nonces, and keeps the rest', async () => {
    const user = await t.createUser({ session: false, tenantId: 1 });
    const family = crypto.randomUUID();
    const insertRefresh = (name: string, expires: string, revoked: string | null) =>
      t.database.executeSql(
        `insert into refresh_tokens (tenant_id, user_id, token_hash, family_id, expires_at, revoked_at)
         values (1, $1, $2, $3, now() + $4::interval, now() + $5::interval)`,
        [user.id, `${name}-${hash()}`, family, expires, revoked],
      );
    await insertRefresh('live', '7 days', null);
    await insertRefresh('revoked-recently', '7 days', '-1 hour');
    await insertRefresh('expired-recently', '-1 hour', null);
    await insertRefresh('revoked-old', '7 days', '-2 days');
    await insertRefresh('expired-old', '-2 days', null);
    const insertReset = (name: string, expires: string, used: string | null) =>
      t.database.executeSql(
        `insert into password_reset_tokens (tenant_id, user_id, token_hash, expires_at, used_at)
         values (1, $1, $2, now() + $3::interval, now() + $4::interval)`,
        [user.id, `${name}-${hash()}`, expires, used],
      );
    await insertReset('usable', '1 hour', null);
    await insertReset('used', '1 hour', '-1 minute');
    await insertReset('expired', '-1 minute', null);
    await t.database.executeSql(
      `insert into captcha_uses (nonce, expires_at) values ($1, now() + interval '1 minute'), ($2, now() - interval '1 minute')`,
      [`live-${hash()}`, `dead-${hash()}`],
    );

    const job = t.jobDefinitions.find((d) => d.name === CLEANUP_EXPIRED_TOKENS_JOB)!;
    await job.handler({} as never);

    const names = async (table: string, column: string, where = '') =>
      (await t.database.executeSql(`select ${column} as v from ${table} ${where}`, [])).rows
        .map((row) => String(row.v).split('-').slice(0, -1).join('-'))
        .sort();
    expect(await names('refresh_tokens', 'token_hash', `where user_id = ${user.id}`)).toEqual([
      'expired-recently',
      'live',
      'revoked-recently',
    ]);
    expect(await names('password_reset_tokens', 'token_hash', `where user_id = ${user.id}`)).toEqual(['usable']);
    expect(await names('captcha_uses', 'nonce')).toEqual(['live']);
  });
});
