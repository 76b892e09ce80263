/**
 * /api/notifications: each user lists their own and the tenant-wide ones with the unread count, marks their own
 * read, deletes their own; a tenant-wide one is posted, changed and deleted by admins only; nobody reaches another
 * user's or another tenant's notification.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationDto, NotificationList } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
  stranger = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
});
afterAll(() => t.close());

const post = async (body: object) => {
  const res = await t.call(admin, 'POST', '/notifications', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<NotificationDto>();
};
const listOf = async (user: TestUser, query = '') =>
  (await t.call(user, 'GET', `/notifications${query}`)).json<NotificationList>();

describe('notifications', () => {
  it('lists the own and the tenant-wide ones, newest first, with count and unread', async () => {
    const toAgent = await post({ message: 'Para o agente', userId: agent.id });
    const everyone = await post({ message: 'Para todos' });
    expect(toAgent).toMatchObject({ userId: agent.id, isRead: false, senderId: admin.id, data: {} });
    expect(everyone).toMatchObject({ userId: null, user: null });
    const agentList = await listOf(agent);
    expect(agentList.notifications.map((n) => n.id)).toEqual([everyone.id, toAgent.id]);
    // The unread badge counts the own ones only (a tenant-wide one is marked read by an admin for everybody).
    expect(agentList).toMatchObject({ count: 2, unread: 1, hasMore: false });
    expect((await listOf(supervisor)).notifications.map((n) => n.id)).toEqual([everyone.id]);
    expect((await listOf(stranger)).count).toBe(0);
    const paged = await listOf(agent, '?pageNumber=2&rowsPerPage=1');
    expect(paged.notifications.map((n) => n.id)).toEqual([toAgent.id]);
  });

  it('a user marks their own read (and all read); a tenant-wide one only an admin; another user never', async () => {
    const mine = await post({ message: 'Leia', userId: agent.id });
    const other = await post({ message: 'Do supervisor', userId: supervisor.id });
    const wide = await post({ message: 'Geral' });
    const read = await t.call(agent, 'PUT', `/notifications/${mine.id}`, { isRead: 'true', userId: 12345 });
    expect(read.json()).toMatchObject({ id: mine.id, isRead: true, userId: agent.id });
    expect((await t.call(agent, 'PUT', `/notifications/${other.id}`, { isRead: true })).json()).toEqual({
      error: 'ERR_NO_NOTIFICATION_FOUND',
    });
    const refused = await t.call(agent, 'PUT', `/notifications/${wide.id}`, { isRead: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.call(admin, 'PUT', `/notifications/${wide.id}`, { isRead: true })).statusCode).toBe(200);
    expect((await t.call(agent, 'PUT', `/notifications/${mine.id}`, {})).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'isRead',
    });
    await post({ message: 'Outra', userId: agent.id });
    expect((await listOf(agent)).unread).toBeGreaterThan(0);
    expect((await t.call(agent, 'PUT', '/notifications/readAll')).json()).toEqual({ updated: 2 });
    expect((await listOf(agent)).unread).toBe(0);
    expect((await listOf(supervisor)).unread).toBe(1);
  });

  it('deletes the own; a tenant-wide one only an admin; unknown and foreign ids are not found', async () => {
    const mine = await post({ message: 'Apague', userId: agent.id });
    const wide = await post({ message: 'Geral 2' });
    expect((await t.call(agent, 'DELETE', `/notifications/${wide.id}`)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.call(supervisor, 'DELETE', `/notifications/${mine.id}`)).json()).toEqual({
      error: 'ERR_NO_NOTIFICATION_FOUND',
    });
    expect((await t.call(stranger, 'DELETE', `/notifications/${mine.id}`)).json()).toEqual({
      error: 'ERR_NO_NOTIFICATION_FOUND',
    });
    expect((await t.call(agent, 'DELETE', `/notifications/${mine.id}`)).statusCode).toBe(204);
    expect((await t.call(admin, 'DELETE', `/notifications/${wide.id}`)).statusCode).toBe(204);
    expect((await t.call(agent, 'DELETE', `/notifications/${mine.id}`)).json()).toEqual({
      error: 'ERR_NO_NOTIFICATION_FOUND',
    });
  });

  it('DELETE /notifications removes the caller own ones only, never a tenant-wide one or another user one', async () => {
    await post({ message: 'Minha 1', userId: supervisor.id });
    const other = await post({ message: 'Do agente', userId: agent.id });
    const wide = await post({ message: 'Geral 3' });
    const res = await t.call(supervisor, 'DELETE', '/notifications');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ deleted: number }>().deleted).toBeGreaterThanOrEqual(1);
    const left = (await listOf(supervisor)).notifications;
    expect(left.every((n) => n.userId === null)).toBe(true);
    expect(left.map((n) => n.id)).toContain(wide.id);
    expect((await listOf(agent)).notifications.map((n) => n.id)).toContain(other.id);
  });

  it('only admins post; the recipient must be a user of the tenant; the message is required', async () => {
    expect((await t.call(supervisor, 'POST', '/notifications', { message: 'x' })).json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
    expect((await t.call(admin, 'POST', '/notifications', { message: 'x', userId: stranger.id })).json()).toEqual({
      error: 'ERR_NO_USER_FOUND',
    });
    expect((await t.call(admin, 'POST', '/notifications', { message: ' ' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'message',
    });
  });
});
