/** Shutting down disconnects every socket; the presence writes that starts finish before the app says it closed. */
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import pg from 'pg';
import { io } from 'socket.io-client';
import { createTestApp } from '../../test/harness.js';

const t = await createTestApp();
afterAll(async () => t.close());

const isOnline = async (id: number) =>
  (await t.database.executeSql('select is_online from users where id = $1', [id])).rows[0]?.is_online;

it('marks the users of the closing node offline before app.close() resolves', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const user = await t.createUser({ tenantId: 1, profile: 'user', name: 'Ana' });
  const socket = io(url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const active = setInterval(() => socket.emit('1:setUserActive'), 100);
  try {
    await expect.poll(() => isOnline(user.id), { timeout: 5_000 }).toBe(true);
  } finally {
    clearInterval(active);
  }
  // On PostgreSQL another session holds the user's row, so the offline write waits: close() must wait for it too.
  const order: string[] = [];
  const blocker = t.databaseUrl ? new pg.Client({ connectionString: t.databaseUrl }) : null;
  if (blocker) {
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select 1 from users where id = $1 for update', [user.id]);
    setTimeout(() => {
      order.push('row released');
      void blocker.query('commit').then(() => blocker.end());
    }, 300);
  }
  await t.app.close();
  order.push('app closed');
  expect(await isOnline(user.id)).toBe(false);
  if (blocker) expect(order).toEqual(['row released', 'app closed']);
  socket.close();
});
