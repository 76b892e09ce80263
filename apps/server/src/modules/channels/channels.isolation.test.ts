/**
 * Tenant isolation: an admin of another tenant reaches no channel of tenant 1 through any route with an id, and
 * changes nothing; `{T}:whatsapp` events reach the own tenant's sockets only.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

const TOKEN = '7000000001:AAH-isolation_bot_token_for_test_1';

let t: TestApp;
let owner: TestUser;
let intruder: TestUser;
let victim: ChannelDto;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ TELEGRAM_API_ROOT: 'http://127.0.0.1:9' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  owner = await t.createUser({ tenantId: 1, profile: 'admin' });
  intruder = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
  victim = (
    await t.call(owner, 'POST', '/whatsapp', { name: 'Vítima', type: 'telegram', tokenTelegram: TOKEN })
  ).json();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

describe('tenant isolation of the channel routes', () => {
  it('answers 404 ERR_NO_WAPP_FOUND for every route with a tenant-1 channel id, and changes nothing', async () => {
    const attempts = [
      t.call(intruder, 'GET', `/whatsapp/${victim.id}`),
      t.call(intruder, 'PUT', `/whatsapp/${victim.id}`, { name: 'Owned', type: 'telegram', tokenTelegram: TOKEN }),
      t.call(intruder, 'DELETE', `/whatsapp/${victim.id}`),
      t.call(intruder, 'POST', `/whatsappsession/${victim.id}`),
      t.call(intruder, 'PUT', `/whatsappsession/${victim.id}`, { isQrcode: true }),
      t.call(intruder, 'DELETE', `/whatsappsession/${victim.id}`),
      t.call(intruder, 'POST', '/setDefault', { whatsappId: victim.id }),
      t.call(intruder, 'POST', `/whatsappRemovePicture/${victim.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    }
    expect((await t.call(intruder, 'GET', '/whatsapp')).json()).toEqual([]);
    expect((await t.call(owner, 'GET', `/whatsapp/${victim.id}`)).json()).toEqual(victim);
  });

  it('sends {T}:whatsapp events to the own tenant only', async () => {
    const connect = (user: TestUser) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = io(url, { auth: { token: user.token }, transports: ['websocket'] });
        sockets.push(socket);
        socket.on('connect', () => resolve(socket));
        socket.on('connect_error', reject);
      });
    const mine = await connect(owner);
    const theirs = await connect(intruder);
    const leaked: unknown[] = [];
    theirs.onAny((event, payload) => leaked.push([event, payload]));
    const seen = new Promise((resolve) => mine.on('1:whatsapp', resolve));
    await t.call(owner, 'PUT', `/whatsapp/${victim.id}`, { ...victim, name: 'Renomeado' });
    expect(await seen).toMatchObject({ action: 'update', whatsapp: { id: victim.id, name: 'Renomeado' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(leaked).toEqual([]);
  });
});
