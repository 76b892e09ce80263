/**
 * QR and pairing codes reach only the profiles that may connect channels (admin, superadmin: the session routes'
 * rule): `GET /whatsapp`, `GET /whatsapp/{id}` and the `{T}:whatsapp` / `{T}:whatsappSession` events give the
 * others the same shape with the codes null. Every "null" is read from an event that did arrive.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, ChannelSessionState, Profile } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel } from '../../test/ticket-fixtures.js';

let t: TestApp;
let url: string;
let channelId: number;
const staff = {} as Record<Profile, TestUser>;
const sockets: Socket[] = [];
const QR = '2@qr-secret,abc,def';
const PAIRING = 'ABCD-1234';

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const profile of ['user', 'super', 'admin', 'superadmin'] as const) {
    staff[profile] = await t.createUser({ tenantId: 1, profile });
  }
  channelId = await makeChannel(t, 1, { name: 'Com QR' });
  await t.database.executeSql(`update channels set status = 'qrcode', qrcode = $2, pairing_code = $3 where id = $1`, [
    channelId,
    QR,
    PAIRING,
  ]);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

const codesOf = (value: { qrcode: string | null; pairingCode: string | null } | undefined) => ({
  qrcode: value?.qrcode,
  pairingCode: value?.pairingCode,
});
const withCodes = { qrcode: QR, pairingCode: PAIRING };
const without = { qrcode: null, pairingCode: null };
const expected = (profile: Profile) => (profile === 'admin' || profile === 'superadmin' ? withCodes : without);

describe('QR and pairing codes', () => {
  it('GET /whatsapp and /whatsapp/{id}: the codes for admins and the superadmin, null (same shape) for the others', async () => {
    for (const [profile, user] of Object.entries(staff) as [Profile, TestUser][]) {
      const list = (await t.call(user, 'GET', '/whatsapp')).json<ChannelDto[]>();
      const listed = list.find((c) => c.id === channelId);
      expect(listed && Object.keys(listed)).toContain('qrcode');
      expect(codesOf(listed), profile).toEqual(expected(profile));
      const one = await t.call(user, 'GET', `/whatsapp/${channelId}`);
      expect(one.statusCode).toBe(200);
      expect(codesOf(one.json<ChannelDto>()), profile).toEqual(expected(profile));
      expect(one.json<ChannelDto>().status).toBe('qrcode');
    }
  });

  it('channel and session events carry the codes only to admins and the superadmin', async () => {
    const seen = {} as Record<Profile, { event: string; args: unknown[] }[]>;
    for (const [profile, user] of Object.entries(staff) as [Profile, TestUser][]) {
      const socket = io(url, {
        auth: { token: user.token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      const events: { event: string; args: unknown[] }[] = (seen[profile] = []);
      socket.onAny((event: string, ...args: unknown[]) => events.push({ event, args }));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
    }
    const channel = (await t.call(staff.admin, 'GET', `/whatsapp/${channelId}`)).json<ChannelDto>();
    const session: ChannelSessionState = {
      id: channelId,
      name: channel.name,
      number: null,
      status: 'qrcode',
      qrcode: QR,
      pairingCode: PAIRING,
      retries: 0,
      updatedAt: channel.updatedAt,
    };
    t.platform.events.publish('channels.changed', { tenantId: 1, channel });
    t.platform.events.publish('channels.session_changed', { tenantId: 1, session });
    t.platform.events.publish('channels.session_sync', { tenantId: 1, session, percent: 100 });
    for (const profile of Object.keys(staff) as Profile[]) {
      const events = seen[profile];
      // whatsapp update, whatsappSession update, loadingscreen, readySession: each once.
      await expect.poll(() => events.length, { timeout: 5000 }).toBe(4);
      const whatsapp = events.find((e) => e.event === '1:whatsapp')?.args[0] as { whatsapp: ChannelDto };
      expect(codesOf(whatsapp.whatsapp), profile).toEqual(expected(profile));
      expect(whatsapp.whatsapp.id).toBe(channelId);
      const sessions = events.filter((e) => e.event === '1:whatsappSession');
      expect(sessions.map((e) => (e.args[0] as { action: string }).action)).toEqual([
        'update',
        'loadingscreen',
        'readySession',
      ]);
      for (const e of sessions) {
        const value = (e.args[0] as { session: ChannelSessionState }).session;
        expect(codesOf(value), profile).toEqual(expected(profile));
        expect(value.status).toBe('qrcode');
      }
    }
  });
});
