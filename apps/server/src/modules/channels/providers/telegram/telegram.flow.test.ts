/**
 * The conversation core through real HTTP on both sides: the Telegram simulator posts updates to our webhook, the
 * server stores them (ticket, message, media), an agent takes the ticket and replies, the send job reaches the
 * simulator, and a resolve sends the channel's farewell and closes the ticket by its job.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageListResponse, TicketDto, TicketListResponse } from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { startTelegramSimulator, type TelegramSimulator } from './telegram.simulator.js';

const TOKEN = '7000000099:AAH-flow_bot_token_for_tests_000001';
const FAREWELL = 'Obrigado pelo contato!';
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

let t: TestApp;
let sim: TelegramSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;
let secret: string;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
const webhook = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/telegram/${channel.id}`,
    headers: { 'x-telegram-bot-api-secret-token': secret },
    payload,
  });
const sentTexts = () => sim.callsOf('sendMessage').map((call) => call.params.text);

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000099, username: 'flow_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: 'Loja',
    type: 'telegram',
    tokenTelegram: TOKEN,
    farewellMessage: FAREWELL,
  });
  channel = created.json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  secret = String(sim.callsOf('setWebhook')[0]!.params.secret_token);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('Telegram -> ticket -> reply -> resolve', () => {
  let ticket: TicketDto;

  it('stores an update as a pending ticket the agent sees, once even when Telegram replays it', async () => {
    expect((await webhook(fixture('text-message'))).statusCode).toBe(200);
    expect((await webhook(fixture('text-message'))).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    expect(list.tickets[0]).toMatchObject({ status: 'pending', unreadMessages: 1, whatsappId: channel.id });
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    expect(ticket.contact).toMatchObject({ telegramId: '555000111' });
    const history = (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>();
    expect(history.messages.map((m) => m.body)).toEqual(['Olá, preciso de ajuda com meu pedido']);
  });

  it('downloads a photo through getFile and serves it by its signed link', async () => {
    sim.files.set('AgAD-large', { path: 'photos/file_1.jpg', data: Buffer.from('JPEGDATA'), type: 'image/jpeg' });
    expect((await webhook(fixture('photo-message'))).statusCode).toBe(200);
    expect(await t.jobs.runPending(job('messages.download-media'))).toBe(1);
    const history = (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>();
    const photo = history.messages.find((m) => m.mediaType === 'image')!;
    expect(photo).toMatchObject({ body: 'a nota fiscal', mediaStatus: 'ready' });
    const media = await t.app.inject({ method: 'GET', url: photo.mediaUrl! });
    expect(media.statusCode).toBe(200);
    expect(media.body).toBe('JPEGDATA');
  });

  it('the agent accepts and replies; the send job delivers the text to Telegram', async () => {
    const accepted = await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    expect(accepted.json<TicketDto>()).toMatchObject({ status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Oi, Maria!', idFront: 'front-1' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    expect(sim.callsOf('sendMessage').at(-1)!.params).toMatchObject({ chat_id: '555000111', text: 'Oi, Maria!' });
    const history = (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>();
    expect(history.messages.at(-1)).toMatchObject({ body: 'Oi, Maria!', fromMe: true, ack: 1, status: 'sended' });
  });

  it('resolving sends the farewell first and the close job resolves the ticket', async () => {
    const resolving = await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'closed', userId: agent.id });
    expect(resolving.json<TicketDto>()).toMatchObject({ status: 'open', isFarewellMessage: true });
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    expect(sentTexts()).toContain(FAREWELL);
    // The close job waits 30 s (product-spec §4); make it due instead of sleeping (a second back: PGlite's clock may
    // give the next statement the same now(), and pg-boss fetches start_after < now()).
    await t.database.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second' where name = 'tickets.close-after-farewell'`,
    );
    expect(await t.jobs.runPending(job('tickets.close-after-farewell'))).toBe(1);
    const closed = (await t.call(agent, 'GET', `/tickets/${ticket.id}`)).json<TicketDto>();
    expect(closed.status).toBe('closed');
    const logs = (await t.call(agent, 'GET', `/tickets/${ticket.id}/logs`)).json<{ type: string }[]>();
    expect(logs.map((log) => log.type)).toEqual(expect.arrayContaining(['create', 'open', 'closed']));
  });

  it('a new message after the resolve opens a new pending ticket with a new protocol', async () => {
    const next = fixture('text-message');
    next.update_id = 900000099;
    (next.message as { message_id: number }).message_id = 99;
    expect((await webhook(next)).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    expect(list.tickets[0]!.id).not.toBe(ticket.id);
    expect(list.tickets[0]!.protocol).not.toBe(ticket.protocol);
  });
});
