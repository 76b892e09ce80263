/**
 * Allowed channels on users (`whatsappAllowed`, client-contract §3): set on create and update (ids or objects), read
 * in the DTO as objects, changed only by admins; enforced when an agent opens a ticket (`POST /tickets`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeTelegramContact, recordingPort, setTenantFlags } from '../../test/ticket-fixtures.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let channelA: number;
let channelB: number;

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  ({ admin, agent, supervisor } = await t.createStaff());
  channelA = await makeChannel(t, 1, { name: 'A Canal' });
  channelB = await makeChannel(t, 1, { name: 'B Canal' });
});
afterAll(() => t.close());

describe('user allowed channels', () => {
  it('creates with ids, updates with objects; GET answers objects {id, name}', async () => {
    const created = await t.call(admin, 'POST', '/users', {
      name: 'Canais',
      email: 'canais@test.local',
      password: 'Segredo#1',
      whatsappAllowed: [channelA],
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<UserDto>();
    expect(user.whatsappAllowed).toEqual([{ id: channelA, name: 'A Canal' }]);
    const updated = await t.call(admin, 'PUT', `/users/${user.id}`, {
      whatsappAllowed: [{ id: channelB, name: 'B Canal' }, channelA],
    });
    expect(updated.json<UserDto>().whatsappAllowed).toEqual([
      { id: channelA, name: 'A Canal' },
      { id: channelB, name: 'B Canal' },
    ]);
    expect((await t.call(admin, 'GET', `/users/${user.id}`)).json<UserDto>().whatsappAllowed).toHaveLength(2);
    const listed = (await t.call(admin, 'GET', '/users?searchParam=canais@')).json<{ users: UserDto[] }>();
    expect(listed.users[0]?.whatsappAllowed).toHaveLength(2);
    expect((await t.call(admin, 'PUT', `/users/${user.id}`, { whatsappAllowed: [] })).json<UserDto>()).toMatchObject({
      whatsappAllowed: [],
    });
  });

  it('refuses ids of no channel of the tenant, and an agent changing its own list', async () => {
    const bad = await t.call(admin, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [999_999] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'whatsappAllowed' });
    await t.call(admin, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [channelA] });
    const echo = await t.call(agent, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [{ id: channelA }] });
    expect(echo.statusCode, echo.body).toBe(200);
    const grab = await t.call(agent, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [channelA, channelB] });
    expect(grab.statusCode).toBe(403);
    expect(grab.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.call(admin, 'GET', `/users/${agent.id}`)).json<UserDto>().whatsappAllowed).toEqual([
      { id: channelA, name: 'A Canal' },
    ]);
  });

  it('the login answer carries the user’s queues and allowed channels', async () => {
    await t.call(admin, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [channelB] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: agent.email, password: agent.password },
      remoteAddress: '10.9.8.7',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ whatsappAllowed: [{ id: channelB, name: 'B Canal' }], queues: [] });
  });

  it('POST /tickets on a channel outside the list: ERR_NO_PERMISSION; an empty list allows every channel', async () => {
    await t.call(admin, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [channelA] });
    const refused = await t.call(agent, 'POST', '/tickets', {
      contactId: await makeTelegramContact(t, 1),
      channelId: channelB,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const allowed = await t.call(agent, 'POST', '/tickets', {
      contactId: await makeTelegramContact(t, 1),
      channelId: channelA,
    });
    expect(allowed.statusCode, allowed.body).toBe(201);
    // Admins and supervisors are not bound by a list...
    await t.call(admin, 'PUT', `/users/${supervisor.id}`, { whatsappAllowed: [channelA] });
    const bySuper = await t.call(supervisor, 'POST', '/tickets', {
      contactId: await makeTelegramContact(t, 1),
      channelId: channelB,
    });
    expect(bySuper.statusCode, bySuper.body).toBe(201);
    // ... unless supervisors act as users (supervisorAdmin).
    await setTenantFlags(t, 1, { supervisorAdmin: 'enabled' });
    const bound = await t.call(supervisor, 'POST', '/tickets', {
      contactId: await makeTelegramContact(t, 1),
      channelId: channelB,
    });
    await setTenantFlags(t, 1, {});
    expect(bound.statusCode).toBe(403);
    await t.call(admin, 'PUT', `/users/${agent.id}`, { whatsappAllowed: [] });
    const open = await t.call(agent, 'POST', '/tickets', {
      contactId: await makeTelegramContact(t, 1),
      channelId: channelB,
    });
    expect(open.statusCode, open.body).toBe(201);
  });
});
