/**
 * Write-only channel fields never reach a client: every field and integration key of a channel is set to a
 * distinctive value through the API, then every way a client reads a channel (the list, the detail, the
 * `{T}:whatsapp` event, the superadmin's all-tenants list) is searched for the secret values, for every profile.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANNEL_FIELD_ACCESS,
  CHANNEL_FLAG_KEYS,
  CHANNEL_INTEGRATION_ACCESS,
  CHANNEL_INTEGRATION_KEYS,
  channelInputSchema,
  type ChannelDto,
  type Profile,
} from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

const nonce = crypto.randomBytes(3).toString('hex');
/** Values that must be valid for the input schema; every other field gets `<field>-<nonce>`. */
const VALID: Record<string, unknown> = {
  name: `Canal ${nonce}`,
  type: 'telegram',
  tokenTelegram: `7000000042:AAH-secret_walk_${nonce}_token`,
  // A Telegram channel's number is the bot's, set on connection: PUT keeps it.
  number: '5511999990000',
  isDefault: true,
  isActive: true,
  queueId: null,
  userId: null,
  chatFlowId: null,
  queueIdImportMessages: null,
  birthdayDateHour: 9,
  importOldMessages: '2025-01-01T00:00:00.000Z',
  importRecentMessages: '2025-02-01T00:00:00.000Z',
  ...Object.fromEntries(CHANNEL_FLAG_KEYS.map((key) => [key, 'enabled'])),
  distribution: 'B',
};
const distinct = (key: string) => `${key}-${nonce}`;

function everyField(round: string): { body: Record<string, unknown>; secrets: string[]; readable: string[] } {
  const body: Record<string, unknown> = {};
  const secrets: string[] = [];
  const readable: string[] = [];
  for (const [key, access] of Object.entries(CHANNEL_FIELD_ACCESS)) {
    if (key === 'integrations') continue;
    const value = key in VALID ? VALID[key] : distinct(`${key}-${round}`);
    body[key] = key === 'tokenTelegram' ? `${String(value)}${round}` : value;
    if (access === 'secret') secrets.push(String(body[key]));
    else if (typeof value === 'string' && !(key in VALID)) readable.push(value);
  }
  const integrations: Record<string, string> = {};
  for (const key of CHANNEL_INTEGRATION_KEYS) {
    integrations[key] = distinct(`int-${key}-${round}`);
    (CHANNEL_INTEGRATION_ACCESS[key] === 'secret' ? secrets : readable).push(integrations[key]);
  }
  body.integrations = integrations;
  return { body, secrets, readable };
}

let t: TestApp;
let users: Record<Profile, TestUser>;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ TELEGRAM_API_ROOT: 'http://127.0.0.1:9' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const staff = await t.createStaff();
  users = {
    user: staff.agent,
    super: staff.supervisor,
    admin: staff.admin,
    superadmin: await t.createUser({ tenantId: 1, profile: 'superadmin' }),
  };
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

const connect = (user: TestUser) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(url, { auth: { token: user.token }, transports: ['websocket'] });
    sockets.push(socket);
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });

function expectNoSecret(serialized: string, secrets: string[], where: string): void {
  for (const secret of secrets) expect(serialized, `${where} carries a secret`).not.toContain(secret);
}

describe('write-only channel fields', () => {
  it('classifies every input field and integration key (the walk below covers them all)', () => {
    expect(Object.keys(CHANNEL_FIELD_ACCESS).sort()).toEqual(Object.keys(channelInputSchema.shape).sort());
    expect(Object.keys(CHANNEL_INTEGRATION_ACCESS).sort()).toEqual([...CHANNEL_INTEGRATION_KEYS].sort());
    // Known credentials stay classified as secrets (a table edit cannot quietly publish one).
    const secretNames = [
      ...Object.entries(CHANNEL_FIELD_ACCESS),
      ...Object.entries(CHANNEL_INTEGRATION_ACCESS),
    ].flatMap(([key, access]) => (access === 'secret' ? [key] : []));
    expect(secretNames).toEqual(
      expect.arrayContaining([
        'tokenTelegram',
        'tokenAPI',
        'bmToken',
        'instagramKey',
        'wppPass',
        'proxyPass',
        'wavoipToken',
        'chatgptApiKey',
        'difyKey',
        'dialogflowJson',
        'transcribeAudioJson',
      ]),
    );
    const parsed = channelInputSchema.strict().safeParse(everyField('c').body);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('never sends a secret to any profile: list, detail, event and the all-tenants list', async () => {
    const created = everyField('a');
    const post = await t.call(users.admin, 'POST', '/whatsapp', created.body);
    expect(post.statusCode, post.body).toBe(201);
    expectNoSecret(post.body, created.secrets, 'POST answer');
    const channel = post.json<ChannelDto>();

    const listeners = await Promise.all(
      Object.values(users).map(async (user) => {
        const socket = await connect(user);
        const events: unknown[] = [];
        socket.on(`${user.tenantId}:whatsapp` as never, (payload: unknown) => void events.push(payload));
        return { user, events };
      }),
    );
    const updated = everyField('b');
    const put = await t.call(users.admin, 'PUT', `/whatsapp/${channel.id}`, updated.body);
    expect(put.statusCode, put.body).toBe(200);
    const secrets = [...created.secrets, ...updated.secrets];
    expectNoSecret(put.body, secrets, 'PUT answer');

    for (const user of Object.values(users)) {
      const list = await t.call(user, 'GET', '/whatsapp');
      const detail = await t.call(user, 'GET', `/whatsapp/${channel.id}`);
      expect(list.statusCode, user.profile).toBe(200);
      expect(detail.statusCode, user.profile).toBe(200);
      expectNoSecret(list.body, secrets, `GET /whatsapp as ${user.profile}`);
      expectNoSecret(detail.body, secrets, `GET /whatsapp/{id} as ${user.profile}`);
      // The walk reaches the DTO: readable values come back, and each secret is named as set.
      expect(
        updated.readable.filter((value) => !detail.body.includes(value)),
        user.profile,
      ).toEqual([]);
      expect(detail.json<ChannelDto>().configuredSecrets.sort()).toEqual(
        [
          ...Object.keys(CHANNEL_FIELD_ACCESS).filter(
            (key) => CHANNEL_FIELD_ACCESS[key as keyof typeof CHANNEL_FIELD_ACCESS] === 'secret',
          ),
          ...CHANNEL_INTEGRATION_KEYS.filter((key) => CHANNEL_INTEGRATION_ACCESS[key] === 'secret'),
        ].sort(),
      );
    }
    await expect.poll(() => listeners.every(({ events }) => events.length > 0)).toBe(true);
    for (const { user, events } of listeners) {
      expect(JSON.stringify(events), user.profile).toContain(updated.readable[0]);
      expectNoSecret(JSON.stringify(events), secrets, `{T}:whatsapp to ${user.profile}`);
    }

    const all = await t.call(users.superadmin, 'GET', '/whatsappTenantsAll');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.body).toContain(channel.name);
    expectNoSecret(all.body, secrets, 'GET /whatsappTenantsAll');
  });
});
