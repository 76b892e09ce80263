/**
 * Replays and races over real HTTP to the Telegram webhook: replayed updates (messages, edits, reactions) create and
 * change nothing; 50 concurrent first messages of one new contact make one contact and one ticket.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../src/modules/channels/providers/telegram/telegram.simulator.js';
import { createTestApp, type TestApp } from '../src/test/harness.js';
import { post, providerId, textUpdate, type Webhook } from './support/telegram.js';

const TOKEN = '7000000789:AAH-reliability_replay_bot_token_01';

let t: TestApp;
let sim: TelegramSimulator;
let channel: ChannelDto;
let webhook: Webhook;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000789, username: 'replay_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example' });
  const { admin } = await t.createStaff();
  channel = (
    await t.call(admin, 'POST', '/whatsapp', { name: 'Replay', type: 'telegram', tokenTelegram: TOKEN })
  ).json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const secret = String(sim.callsOf('setWebhook').at(-1)!.params.secret_token);
  webhook = { url: `http://127.0.0.1:${port}/api/webhooks/telegram/${channel.id}`, secret };
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

/** Every row the ingestion can write or change, as one comparable value. */
const state = async () =>
  (
    await t.database.executeSql(
      `select (select count(*)::int from contacts) as contacts,
              (select count(*)::int from tickets) as tickets,
              (select count(*)::int from ticket_logs) as logs,
              (select count(*)::int from messages) as messages,
              (select md5(string_agg(m::text, ',' order by m.id)) from messages m) as message_rows,
              (select md5(string_agg(k::text, ',' order by k.id)) from tickets k) as ticket_rows,
              (select count(*)::int from pgboss.job) as jobs`,
    )
  ).rows[0];

const edit = (n: number, chatId: number, text: string) => ({
  update_id: 710_000_000 + n,
  edited_message: { ...textUpdate(n, chatId, text).message, edit_date: 1_763_800_000 },
});
const reaction = (n: number, chatId: number) => ({
  update_id: 720_000_000 + n,
  message_reaction: {
    chat: { id: chatId, type: 'private', first_name: 'Cliente' },
    message_id: n,
    user: { id: chatId, is_bot: false, first_name: 'Cliente' },
    date: 1_763_800_001,
    old_reaction: [],
    new_reaction: [{ type: 'emoji', emoji: '👍' }],
  },
});

describe('replayed webhooks', () => {
  it('create and change nothing, however often and however concurrently they arrive', async () => {
    const updates: object[] = [];
    for (let i = 0; i < 20; i++) updates.push(textUpdate(i + 1, 9_300_000 + (i % 5)));
    for (let i = 0; i < 5; i++) updates.push(edit(i + 1, 9_300_000 + i, `editada ${i}`));
    for (let i = 0; i < 5; i++) updates.push(reaction(i + 6, 9_300_000 + i));
    for (const update of updates) expect(await post(webhook, update)).toBe(200);
    const before = await state();
    expect(before).toMatchObject({ contacts: 5, tickets: 5, messages: 20 });

    const replays = [...updates, ...updates, ...updates].sort(() => Math.random() - 0.5);
    const statuses = await Promise.all(replays.map((update) => post(webhook, update)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await state()).toEqual(before);
  });
});

describe('a new contact’s first messages racing', () => {
  it('50 concurrent first messages make one contact, one ticket and 50 messages', async () => {
    const chatId = 9_400_000;
    const updates = Array.from({ length: 50 }, (_, i) => textUpdate(1000 + i, chatId, `primeira ${i}`));
    const statuses = await Promise.all(updates.map((update) => post(webhook, update)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const { rows } = await t.database.executeSql(
      `select (select count(*)::int from contacts where telegram_id = $1) as contacts,
              (select count(*)::int from tickets k join contacts c on c.id = k.contact_id where c.telegram_id = $1)
                as tickets,
              (select count(*)::int from messages m join contacts c on c.id = m.contact_id where c.telegram_id = $1)
                as messages,
              (select sum(unread_messages)::int from tickets k join contacts c on c.id = k.contact_id
                where c.telegram_id = $1) as unread`,
      [String(chatId)],
    );
    expect(rows[0]).toEqual({ contacts: 1, tickets: 1, messages: 50, unread: 50 });
  });

  it('50 concurrent copies of one first message store it once', async () => {
    const update = textUpdate(2000, 9_500_000, 'uma só');
    const statuses = await Promise.all(Array.from({ length: 50 }, () => post(webhook, update)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const { rows } = await t.database.executeSql(`select count(*)::int as n from messages where message_id = $1`, [
      providerId(update),
    ]);
    expect(rows[0]).toEqual({ n: 1 });
    const tickets = await t.database.executeSql(
      `select count(*)::int as n, sum(unread_messages)::int as unread from tickets k
         join contacts c on c.id = k.contact_id where c.telegram_id = '9500000'`,
    );
    expect(tickets.rows[0]).toEqual({ n: 1, unread: 1 });
  });
});
