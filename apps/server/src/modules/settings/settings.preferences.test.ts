/** Static /tenants/... paths answer their own odd shapes, never the /tenants/:id one-tenant array. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_HOURS, DEFAULT_SYSTEM_COLORS, SYSTEM_COLOR_KEYS } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let other: TestUser;
let tenantId: number;
const due = new Date('2027-03-04T05:06:07.000Z');

beforeAll(async () => {
  t = await createTestApp();
  tenantId = await t.createTenant({ name: 'Loja Prefs', dueDate: due });
  admin = await t.createUser({ tenantId, profile: 'admin' });
  agent = await t.createUser({ tenantId, profile: 'user' });
  other = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
});
afterAll(async () => t.close());

// What /tenants/:id answers: a one-element array of a tenant DTO (with `status` and `name`).
const looksLikeOwnTenant = (body: unknown) =>
  Array.isArray(body) && body.length === 1 && typeof body[0] === 'object' && body[0] !== null && 'status' in body[0];

const week = (type: 'O' | 'C' | 'H') => DEFAULT_BUSINESS_HOURS.map((d) => ({ ...d, type }));

describe('GET /tenants/date', () => {
  it("answers the caller tenant's due date, and null when there is none", async () => {
    const res = await t.call(agent, 'GET', '/tenants/date/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ dueDate: due.toISOString() });
    expect((await t.call(other, 'GET', '/tenants/date')).json()).toEqual({ dueDate: null });
  });
});

describe('business hours', () => {
  it('reads seven open days and an empty absence message by default, in a one-element array', async () => {
    const res = await t.call(agent, 'GET', '/tenants/business-hours/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ businessHours: { day: number; type: string }[]; messageBusinessHours: string }[]>();
    expect(looksLikeOwnTenant(body)).toBe(false);
    expect(body).toHaveLength(1);
    expect(body[0]!.businessHours.map((d) => [d.day, d.type])).toEqual([0, 1, 2, 3, 4, 5, 6].map((d) => [d, 'O']));
    expect(body[0]!.messageBusinessHours).toBe('');
  });

  it('stores the week and the absence message for admins of the tenant only', async () => {
    const days = week('H').reverse();
    const put = await t.call(admin, 'PUT', '/tenants/business-hours/', days);
    expect(put.statusCode).toBe(200);
    // The writes answer the object (client-contract §15: the client reads `businessHours` of the answer), not an array.
    const saved = put.json<{ businessHours: { day: number }[]; messageBusinessHours: string }>();
    expect(Array.isArray(saved)).toBe(false);
    expect(saved.businessHours.map((d) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(saved.messageBusinessHours).toBe('');
    const msg = await t.call(admin, 'PUT', '/tenants/message-business-hours/', { messageBusinessHours: 'Fechado' });
    expect(msg.statusCode).toBe(200);
    expect(Array.isArray(msg.json())).toBe(false);
    expect(msg.json()).toMatchObject({ messageBusinessHours: 'Fechado' });
    expect(msg.json().businessHours).toHaveLength(7);
    const read = (await t.call(agent, 'GET', '/tenants/business-hours')).json()[0];
    expect(read.messageBusinessHours).toBe('Fechado');
    expect(read.businessHours.every((d: { type: string }) => d.type === 'H')).toBe(true);
    // Another tenant still sees its defaults.
    expect((await t.call(other, 'GET', '/tenants/business-hours')).json()[0].messageBusinessHours).toBe('');

    expect((await t.call(agent, 'PUT', '/tenants/business-hours', week('C'))).statusCode).toBe(403);
    const sup = await t.createUser({ tenantId, profile: 'super' });
    expect(
      (await t.call(sup, 'PUT', '/tenants/message-business-hours', { messageBusinessHours: 'x' })).statusCode,
    ).toBe(403);
  });

  it('refuses a week with a missing day, a repeated day or a malformed hour', async () => {
    expect((await t.call(admin, 'PUT', '/tenants/business-hours', week('O').slice(1))).statusCode).toBe(400);
    const repeated = week('O').map((d) => ({ ...d, day: d.day === 6 ? 5 : d.day }));
    expect((await t.call(admin, 'PUT', '/tenants/business-hours', repeated)).statusCode).toBe(400);
    const badHour = week('H').map((d) => ({ ...d, hr1: '25:00' }));
    expect((await t.call(admin, 'PUT', '/tenants/business-hours', badHour)).statusCode).toBe(400);
  });
});

describe('rating', () => {
  it('reads the 0-5 scale and the reply texts in a one-element array with the tenant id', async () => {
    const res = await t.call(agent, 'GET', '/tenants/rating/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(looksLikeOwnTenant(body)).toBe(false);
    expect(body).toHaveLength(1);
    expect(body[0].id).toBe(tenantId);
    expect(body[0].rating.map((r: { rating: number }) => r.rating)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const field of ['ratingStore', 'ratingStoreAttemp', 'ratingStoreError']) {
      expect(typeof body[0][field]).toBe('string');
    }
  });

  it('stores the options for admins only, and refuses a value outside 0-5', async () => {
    const options = [
      { rating: 0, label: 'Não gostei' },
      { rating: 5, label: 'Adorei' },
    ];
    expect((await t.call(agent, 'PUT', '/tenants/rating', options)).statusCode).toBe(403);
    expect((await t.call(admin, 'PUT', '/tenants/rating', [{ rating: 6, label: 'x' }])).statusCode).toBe(400);
    const put = await t.call(admin, 'PUT', '/tenants/rating/', options);
    expect(put.statusCode).toBe(200);
    expect((await t.call(agent, 'GET', '/tenants/rating')).json()[0].rating).toEqual(options);
  });
});

describe('system colours', () => {
  const expectColourList = (body: unknown, overrides: Record<string, string> = {}) => {
    expect(body).toEqual(
      SYSTEM_COLOR_KEYS.map((key) => ({
        label: key[0]!.toUpperCase() + key.slice(1),
        [key]: overrides[key] ?? DEFAULT_SYSTEM_COLORS[key],
      })),
    );
  };

  it('answers a bare array with one colour object per key, for the tenant and publicly', async () => {
    const res = await t.call(agent, 'GET', '/tenants/systemColors/');
    expect(res.statusCode).toBe(200);
    expect(looksLikeOwnTenant(res.json())).toBe(false);
    expectColourList(res.json());
    const pub = await t.app.inject({
      method: 'GET',
      url: '/api/publicSystemColors',
      headers: { authorization: 'Bearer null' },
    });
    expect(pub.statusCode).toBe(200);
    expectColourList(pub.json());
  });

  it("lets an admin change some colours; the public colours are tenant 1's", async () => {
    const body = [
      { label: 'Primary', primary: '#123456' },
      { label: 'Light', light: '#abcdef' },
    ];
    expect((await t.call(agent, 'PUT', '/tenants/systemColors', body)).statusCode).toBe(403);
    expect(
      (await t.call(admin, 'PUT', '/tenants/systemColors', [{ label: 'Primary', primary: 'red' }])).statusCode,
    ).toBe(400);
    expect((await t.call(admin, 'PUT', '/tenants/systemColors', [{ label: 'X', other: '#123456' }])).statusCode).toBe(
      400,
    );
    const put = await t.call(admin, 'PUT', '/tenants/systemColors/', body);
    expect(put.statusCode).toBe(200);
    expectColourList(put.json(), { primary: '#123456', light: '#abcdef' });
    expectColourList((await t.call(agent, 'GET', '/tenants/systemColors')).json(), {
      primary: '#123456',
      light: '#abcdef',
    });
    expectColourList((await t.app.inject({ method: 'GET', url: '/api/publicSystemColors/' })).json());

    const owner = await t.createUser({ tenantId: 1, profile: 'admin' });
    expect(
      (await t.call(owner, 'PUT', '/tenants/systemColors', [{ label: 'Accent', accent: '#010203' }])).statusCode,
    ).toBe(200);
    expectColourList((await t.app.inject({ method: 'GET', url: '/api/publicSystemColors' })).json(), {
      accent: '#010203',
    });
  });
});

describe('/tenants/:id still answers the own tenant', () => {
  it('for any other path segment', async () => {
    const res = await t.call(agent, 'GET', '/tenants/undefined');
    expect(looksLikeOwnTenant(res.json())).toBe(true);
  });
});
