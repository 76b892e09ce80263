import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS, SETTING_KEYS } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let otherTenant: number;
let otherAdmin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ tenantId: 1, profile: 'admin' });
  agent = await t.createUser({ tenantId: 1, profile: 'user' });
  otherTenant = await t.createTenant();
  otherAdmin = await t.createUser({ tenantId: otherTenant, profile: 'admin' });
});
afterAll(async () => t.close());

const put = (user: TestUser, path: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/settings/${path}`, headers: user.auth, payload });
const get = (user: TestUser, path = '') =>
  t.app.inject({ method: 'GET', url: `/api/settings/${path}`, headers: user.auth });

describe('GET /api/settings', () => {
  it('answers a bare array of every key with its default to any logged user', async () => {
    const res = await get(agent);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ key: string; value: string }[]>();
    expect(body.map((s) => s.key)).toEqual(SETTING_KEYS);
    expect(body.find((s) => s.key === 'userCreation')).toEqual({ key: 'userCreation', value: 'enabled' });
  });

  it('refuses an anonymous caller', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(res.statusCode).toBe(401);
  });

  it('reads one key, with or without a trailing slash, and 404s an unknown one', async () => {
    const one = await get(agent, 'signed/');
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ key: 'signed', value: SETTING_DEFAULTS.signed });
    const unknown = await get(agent, 'noSuchKey');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
  });
});

describe('PUT /api/settings/:anything', () => {
  it("takes the key from the body, even on the reference client's /settings/undefined/ path", async () => {
    const res = await put(admin, 'undefined/', { key: 'signed', value: 'enabled' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: 'signed', value: 'enabled' });
    expect((await get(agent, 'signed')).json()).toEqual({ key: 'signed', value: 'enabled' });
    const list = (await get(agent)).json<{ key: string; value: string }[]>();
    expect(list.find((s) => s.key === 'signed')?.value).toBe('enabled');
  });

  it('stores free-text keys as given', async () => {
    const res = await put(admin, 'autoCloseMessage', { key: 'autoCloseMessage', value: 'Até logo!' });
    expect(res.statusCode).toBe(200);
    expect((await get(admin, 'autoCloseMessage')).json()).toEqual({ key: 'autoCloseMessage', value: 'Até logo!' });
  });

  it('accepts only enabled/disabled on toggle keys', async () => {
    const res = await put(admin, 'undefined', { key: 'ignoreGroupMsg', value: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'value' });
  });

  it('accepts and ignores an unknown key (client item 8): 200, nothing stored, no event', async () => {
    const published: unknown[] = [];
    const stop = t.platform.events.subscribe('settings.updated', (event) => void published.push(event));
    const before = (await get(admin)).json();
    for (const value of ['enabled', 42, true, null, { nested: 'x' }]) {
      const res = await put(admin, 'undefined', { key: 'noSuchKey', value });
      expect(res.statusCode, JSON.stringify(value)).toBe(200);
      expect(res.json()).toEqual({ key: 'noSuchKey', value: value === 'enabled' ? 'enabled' : '' });
    }
    expect((await get(admin)).json()).toEqual(before);
    expect((await get(admin, 'noSuchKey')).statusCode).toBe(404);
    const { rows } = await t.database.executeSql(`select 1 from settings where key = 'noSuchKey'`);
    expect(rows).toEqual([]);
    expect(published).toEqual([]);
    stop();
    // Still an admin's call, and a known key's value is still checked.
    expect((await put(agent, 'undefined', { key: 'noSuchKey', value: 'x' })).statusCode).toBe(403);
    for (const value of [42, true, null, 'x'.repeat(4001)]) {
      const res = await put(admin, 'undefined', { key: 'callRejectMessage', value });
      expect(res.statusCode, String(value).slice(0, 10)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'value' });
    }
    expect((await put(admin, 'undefined', { value: 'enabled' })).statusCode).toBe(400);
  });

  it('is admin-only', async () => {
    const res = await put(agent, 'undefined', { key: 'signed', value: 'disabled' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const supervisor = await t.createUser({ tenantId: 1, profile: 'super' });
    expect((await put(supervisor, 'undefined', { key: 'signed', value: 'disabled' })).statusCode).toBe(403);
    expect((await get(agent, 'signed')).json()).toEqual({ key: 'signed', value: 'enabled' });
  });

  it('refuses switching on all three visibility keys together', async () => {
    expect((await put(admin, 'x', { key: 'NotViewAssignedTickets', value: 'enabled' })).statusCode).toBe(200);
    expect((await put(admin, 'x', { key: 'NotViewTicketsChatBot', value: 'enabled' })).statusCode).toBe(200);
    const res = await put(admin, 'x', { key: 'DirectTicketsToWallets', value: 'enabled' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_SETTINGS_VISIBILITY_COMBINATION' });
    expect((await get(admin, 'DirectTicketsToWallets')).json().value).toBe('disabled');
    // Switching one off is always allowed, and then the third may go on.
    expect((await put(admin, 'x', { key: 'NotViewTicketsChatBot', value: 'disabled' })).statusCode).toBe(200);
    expect((await put(admin, 'x', { key: 'DirectTicketsToWallets', value: 'enabled' })).statusCode).toBe(200);
  });
});

describe('tenant isolation', () => {
  it('keeps settings written by tenant 2 out of tenant 1', async () => {
    const before = (await get(admin)).json();
    const res = await put(otherAdmin, 'undefined', { key: 'userCreation', value: 'disabled' });
    expect(res.statusCode).toBe(200);
    expect((await get(otherAdmin, 'userCreation')).json()).toEqual({ key: 'userCreation', value: 'disabled' });
    expect((await get(admin, 'userCreation')).json()).toEqual({ key: 'userCreation', value: 'enabled' });
    expect((await get(admin)).json()).toEqual(before);
  });
});
