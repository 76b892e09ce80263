/**
 * A Baileys channel through the app: the session host opens the driver over the fake socket, the simulator shows a
 * QR and the phone scans it, a customer message becomes a ticket the agent sees, the agent's reply reaches the
 * simulator's socket, and receipts move the message's ack forward.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageListResponse, TicketDto, TicketListResponse } from '@conversa/shared';
import { eventually } from '../../../../test/eventually.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { SEND_MESSAGE_JOB } from '../../../messages/index.js';
import { clientMessageIdOf } from '../../../messages/messages.send-job.js';
import { enqueueSessionJob } from '../../sessions/session-jobs.js';
import { createBaileysDriver } from './baileys.driver.js';
import { makeWASocket } from './baileys.fake-socket.js';
import { startBaileysSimulator, type BaileysSimulator } from './baileys.simulator.js';

let t: TestApp;
let sim: BaileysSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;

beforeAll(async () => {
  sim = await startBaileysSimulator();
  const driver = createBaileysDriver({
    makeSocket: (config, hint) => makeWASocket({ ...config, channelId: hint.channelId, simulatorUrl: sim.url }),
  });
  t = await createTestApp({}, { sessionDrivers: [driver] });
  await t.startBackground();
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  const created = await t.call(admin, 'POST', '/whatsapp', { name: 'WhatsApp Loja', type: 'baileys' });
  expect(created.statusCode, created.body).toBe(201);
  channel = created.json<ChannelDto>();
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const channelStatus = async () => (await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json<ChannelDto>();

describe('Baileys: QR -> customer message -> ticket -> reply -> acks', () => {
  let ticket: TicketDto;

  it('connects: the QR reaches the channel, the scan logs in, the channel is CONNECTED with its number', async () => {
    expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
    const withQr = await eventually(channelStatus, (c) => c.status === 'qrcode', 'the QR');
    expect(withQr.qrcode).toMatch(/^2@sim-qr/);
    sim.scan(channel.id, { number: '5561999990000', name: 'Loja' });
    const connected = await eventually(channelStatus, (c) => c.status === 'CONNECTED', 'CONNECTED');
    expect(connected.number).toBe('5561999990000');
  });

  it('a customer message becomes a pending ticket the agent sees', async () => {
    sim.emit(channel.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: '556188887777@s.whatsapp.net', fromMe: false, id: 'WA-IN-1' },
          message: { conversation: 'Olá, meu pedido atrasou' },
          messageTimestamp: Math.floor(Date.now() / 1000),
          pushName: 'Carla',
        },
      ],
    });
    const list = await eventually(
      async () => (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>(),
      (l) => l.tickets.length === 1,
      'the ticket',
    );
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    // The 8-digit JID is stored as WhatsApp gave it (12 digits): replies must reach that JID.
    expect(ticket.contact).toMatchObject({ number: '556188887777', name: 'Carla' });
    const history = (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>();
    expect(history.messages.map((m) => m.body)).toEqual(['Olá, meu pedido atrasou']);
  });

  it("the agent's reply reaches the socket; receipts move its ack forward only", async () => {
    await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Oi Carla, já vejo!', idFront: 'f-1' });
    expect(sent.statusCode, sent.body).toBe(200);
    await sim.waitForCalls('sendMessage', 1, { channelId: channel.id, timeoutMs: 20_000 });
    const call = sim.callsOf('sendMessage', channel.id)[0]!;
    // Sent to the JID the customer wrote from (the 8-digit form WhatsApp uses for this account).
    expect(call.args.slice(0, 2)).toEqual(['556188887777@s.whatsapp.net', { text: 'Oi Carla, já vejo!' }]);
    const reply = await eventually(
      async () => (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>(),
      (h) => h.messages.some((m) => m.fromMe && m.status === 'sended'),
      'the sent reply',
    );
    const mine = reply.messages.find((m) => m.fromMe)!;
    expect(mine.ack).toBe(1);

    const providerId = (call.result as { key: { id: string } }).key.id;
    sim.emit(channel.id, 'messages.update', [
      { key: { remoteJid: '556188887777@s.whatsapp.net', fromMe: true, id: providerId }, update: { status: 4 } },
    ]);
    await eventually(
      async () => (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>(),
      (h) => h.messages.find((m) => m.fromMe)?.ack === 3,
      'ack 3 (read)',
    );
    // A late delivery receipt does not move it back.
    sim.emit(channel.id, 'messages.update', [
      { key: { remoteJid: '556188887777@s.whatsapp.net', fromMe: true, id: providerId }, update: { status: 3 } },
    ]);
    sim.emit(channel.id, 'message-receipt.update', [
      {
        key: { remoteJid: '556188887777@s.whatsapp.net', fromMe: true, id: providerId },
        receipt: { playedTimestamp: 1 },
      },
    ]);
    const final = await eventually(
      async () => (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>(),
      (h) => h.messages.find((m) => m.fromMe)?.ack === 4,
      'ack 4 (played)',
    );
    expect(final.messages.find((m) => m.fromMe)!.ack).toBe(4);
  });

  it('a send repeated after a crash goes out under the same message id: WhatsApp delivers it once', async () => {
    const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Segunda mensagem', idFront: 'f-2' });
    expect(sent.statusCode, sent.body).toBe(200);
    const row = sent.json<{ id: number }>();
    await sim.waitForCalls('sendMessage', 2, { channelId: channel.id, timeoutMs: 20_000 });
    const first = sim.callsOf('sendMessage', channel.id)[1]!;
    const id = clientMessageIdOf(1, row.id);
    expect(first.args[2]).toMatchObject({ messageId: id });
    await eventually(
      async () => (await t.database.executeSql('select message_id from messages where id = $1', [row.id])).rows[0],
      (r) => r?.message_id === id,
      'the provider id stored',
    );
    // The state a crash leaves when WhatsApp took the message but the process died before storing its id: the job
    // comes back (pg-boss expiry) and the owner sends again.
    await t.database.executeSql("update messages set message_id = null, status = 'pending', ack = 0 where id = $1", [
      row.id,
    ]);
    await enqueueSessionJob(t.jobs, channel.id, SEND_MESSAGE_JOB, { tenantId: 1, messageId: row.id });
    await sim.waitForCalls('sendMessage', 3, { channelId: channel.id, timeoutMs: 20_000 });
    expect(sim.callsOf('sendMessage', channel.id)[2]!.args[2]).toMatchObject({ messageId: id });
    const texts = sim.delivered(channel.id).map((call) => (call.args[1] as { text: string }).text);
    expect(texts).toEqual(['Oi Carla, já vejo!', 'Segunda mensagem']);
    await eventually(
      async () => (await t.database.executeSql('select message_id from messages where id = $1', [row.id])).rows[0],
      (r) => r?.message_id === id,
      'the provider id stored again',
    );
  });
});
