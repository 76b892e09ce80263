/** The installation's channel types: every type the add form offers can be created; QR types run as sessions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_CHANNEL_TYPES, type ChannelDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  await t.database.executeSql('update tenants set max_connections = 50 where id = 1');
  ({ admin } = await t.createStaff());
});
afterAll(() => t.close());

const bodies: Record<string, object> = {
  telegram: { tokenTelegram: '7000000041:AAH-registry_bot_token_for_tests_01' },
  evo: { remotePath: 'http://127.0.0.1:9/', tokenAPI: 'evo-key' },
  meow: { remotePath: 'http://127.0.0.1:9/', tokenAPI: 'meow-token' },
};

describe('channel types of this installation', () => {
  it('creates a channel of every supported type; baileys and whatsapp (whatsapp-web.js) are stateful sessions', async () => {
    for (const type of SUPPORTED_CHANNEL_TYPES) {
      const res = await t.call(admin, 'POST', '/whatsapp', { name: `Canal${type}`, type, ...bodies[type] });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(201);
      expect(res.json<ChannelDto>().type).toBe(type);
    }
    // Every channel type has an adapter since issue 15 (the hub types included): a type outside the list is invalid.
    const unknown = await t.call(admin, 'POST', '/whatsapp', { name: 'Sms', type: 'sms' });
    expect(unknown.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'type' });
    // QR types start as a wanted session for the lease owner to open, not through an adapter call.
    const channels = (await t.call(admin, 'GET', '/whatsapp')).json<ChannelDto[]>();
    for (const type of ['baileys', 'whatsapp'] as const) {
      const channel = channels.find((c) => c.type === type)!;
      const started = await t.call(admin, 'POST', `/whatsappsession/${channel.id}`);
      expect(started.json()).toMatchObject({ id: channel.id, status: 'OPENING' });
    }
    const { rows } = await t.database.executeSql(
      `select c.type, s.wanted from channel_sessions s join channels c on c.id = s.channel_id order by c.type`,
    );
    expect(rows).toEqual([
      { type: 'baileys', wanted: true },
      { type: 'whatsapp', wanted: true },
    ]);
  });
});
