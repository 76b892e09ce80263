/**
 * A birthday is a real calendar date (issue 23): an impossible one (31/02/1990, 2023-02-29) is refused with 400
 * ERR_VALIDATION (field birthdayDate) on create and edit, and the stored birthday stays; only an explicit null or ''
 * clears it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ agent } = await t.createStaff());
});
afterAll(async () => t.close());

const IMPOSSIBLE = ['1990-02-31', '2023-02-29', '1990-13-01', '1990-04-31', '31/02/1990', '1990-02-31T00:00:00Z', 'x'];

describe('contact birthday', () => {
  it('an impossible date is refused on create, nothing stored', async () => {
    for (const birthdayDate of IMPOSSIBLE) {
      const res = await t.call(agent, 'POST', '/contacts', { name: `Aniversário ${birthdayDate}`, birthdayDate });
      expect(res.statusCode, birthdayDate).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'birthdayDate' });
    }
    const list = await t.call(agent, 'GET', '/contacts/?searchParam=Aniversário');
    expect(list.json<{ contacts: ContactDto[] }>().contacts).toEqual([]);
  });

  it('an impossible date on edit (full or partial) answers 400 and keeps the stored birthday', async () => {
    const created = await t.call(agent, 'POST', '/contacts', { name: 'Aniversariante', birthdayDate: '1990-05-17' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<ContactDto>();
    for (const birthdayDate of IMPOSSIBLE) {
      const res = await t.call(agent, 'PUT', `/contacts/${id}`, { name: 'Aniversariante', birthdayDate });
      expect(res.statusCode, birthdayDate).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'birthdayDate' });
      const partial = await t.call(agent, 'PUT', `/contacts/${id}`, { birthdayDate });
      expect(partial.statusCode, birthdayDate).toBe(400);
    }
    const stored = await t.call(agent, 'GET', `/contacts/${id}`);
    expect(stored.json<ContactDto>().birthdayDate).toBe('1990-05-17');
    // A leap day is a date; an explicit null clears.
    const leap = await t.call(agent, 'PUT', `/contacts/${id}`, { birthdayDate: '2024-02-29' });
    expect(leap.json<ContactDto>().birthdayDate).toBe('2024-02-29');
    const cleared = await t.call(agent, 'PUT', `/contacts/${id}`, { birthdayDate: null });
    expect(cleared.json<ContactDto>().birthdayDate).toBeNull();
  });
});
