/** Ingestion of normalised inbound events: messages, media, replies, edits, deletes, reactions, acks, replays, races. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import type { ChannelCredentials } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  mediaJob,
  recordEvents,
  settle,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';
import { ticketLogs, tickets } from '../tickets/tickets.tables.js';
import type { Ingestion } from './ingestion.service.js';

let t: TestApp;
let tenant: number;
let channel: ChannelCredentials;
let ingestion: Ingestion;
let recorded: ReturnType<typeof recordEvents>;
const adapter = new TestAdapter();

const rowsOf = async <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(t.platform.db, systemContext(tenant), fn);
const messageByProviderId = (id: string) =>
  rowsOf(async (tx) => (await tx.select().from(messages).where(eq(messages.messageId, id)))[0]);

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  tenant = await t.createTenant();
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
  recorded = recordEvents(t);
});
afterAll(async () => t.close());
beforeEach(() => recorded.clear());

describe('message events', () => {
  it('stores a text message on a new pending ticket and announces both after commit', async () => {
    const event = textEvent('1001', 'Olá, preciso de ajuda');
    await ingestion.ingest(channel, [event]);
    await settle();
    const row = await messageByProviderId(event.providerMessageId);
    expect(row).toMatchObject({ body: 'Olá, preciso de ajuda', fromMe: false, status: 'received', ack: 0 });
    const ticket = await rowsOf(
      async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, row!.ticketId)))[0],
    );
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1, answered: false, channel: 'telegram' });
    expect(ticket!.lastMessage).toBe('Olá, preciso de ajuda');
    expect(ticket!.protocol).toMatch(/^\d{8}-\d{5}$/);
    const logs = await rowsOf((tx) => tx.select().from(ticketLogs).where(eq(ticketLogs.ticketId, ticket!.id)));
    expect(logs.map((l) => l.type)).toEqual(['create']);
    expect(recorded.messages.map((e) => e.type)).toEqual(['chat:create']);
    expect(recorded.messages[0]!.message.ticket.id).toBe(ticket!.id);
    expect(recorded.tickets).toEqual([{ type: 'ticket:create', ticketId: ticket!.id, notify: true }]);

    recorded.clear();
    await ingestion.ingest(channel, [textEvent('1001', 'Alguém?')]);
    await settle();
    const again = await rowsOf(async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, ticket!.id)))[0]);
    expect(again!.unreadMessages).toBe(2);
    expect(recorded.tickets).toEqual([{ type: 'ticket:update', ticketId: ticket!.id, notify: undefined }]);
  });

  it('routes a new ticket by the channel queue and user', async () => {
    const [user] = await Promise.all([t.createUser({ tenantId: tenant })]);
    const routed = await createTelegramChannel(t, tenant, { name: 'Routed', userId: user.id });
    const event = textEvent('1002', 'oi');
    await ingestion.ingest(routed, [event]);
    const row = await messageByProviderId(event.providerMessageId);
    const ticket = await rowsOf(
      async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, row!.ticketId)))[0],
    );
    expect(ticket).toMatchObject({ userId: user.id, channelId: routed.id, status: 'pending' });
  });

  it('a replayed provider id is a no-op: no second row, no ticket change, no event', async () => {
    const event = textEvent('1003', 'uma vez');
    await ingestion.ingest(channel, [event]);
    const first = await messageByProviderId(event.providerMessageId);
    const before = await rowsOf(
      async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, first!.ticketId)))[0],
    );
    await settle();
    recorded.clear();
    await ingestion.ingest(channel, [event, event]);
    await settle();
    const count = await rowsOf((tx) =>
      tx.select().from(messages).where(eq(messages.messageId, event.providerMessageId)),
    );
    expect(count).toHaveLength(1);
    const after = await rowsOf(
      async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, first!.ticketId)))[0],
    );
    expect(after).toEqual(before);
    expect(recorded.messages).toEqual([]);
    expect(recorded.tickets).toEqual([]);
  });

  it('a message written on the phone itself answers the ticket; the customer’s next one waits again', async () => {
    await ingestion.ingest(channel, [textEvent('1006', 'oi'), textEvent('1006', 'tem alguém?')]);
    const echo = textEvent('1006', 'respondido pelo celular', { fromMe: true });
    await ingestion.ingest(channel, [echo]);
    const row = await messageByProviderId(echo.providerMessageId);
    expect(row).toMatchObject({ fromMe: true, read: true, ack: 1, status: 'sended' });
    const ticketOf = async () =>
      rowsOf(async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, row!.ticketId)))[0]!);
    expect(await ticketOf()).toMatchObject({
      answered: true,
      unreadMessages: 0,
      lastMessage: 'respondido pelo celular',
    });
    await ingestion.ingest(channel, [textEvent('1006', 'obrigado')]);
    expect(await ticketOf()).toMatchObject({ answered: false, unreadMessages: 1, lastMessage: 'obrigado' });
  });

  it('resolves a reply to the quoted message', async () => {
    const original = textEvent('1004', 'pergunta');
    const reply = textEvent('1004', 'resposta', { quotedProviderMessageId: original.providerMessageId });
    await ingestion.ingest(channel, [original, reply]);
    await settle();
    const quoted = await messageByProviderId(original.providerMessageId);
    expect((await messageByProviderId(reply.providerMessageId))!.quotedMsgId).toBe(quoted!.id);
    const dto = recorded.messages.find((e) => e.message.body === 'resposta')!.message;
    expect(dto.quotedMsg).toMatchObject({ id: quoted!.id, body: 'pergunta', fromMe: false });
  });

  it('stores nothing of a blocked contact', async () => {
    await ingestion.ingest(channel, [textEvent('1005', 'primeira')]);
    await rowsOf((tx) => tx.update(contacts).set({ blocked: true }).where(eq(contacts.telegramId, '1005')));
    const blocked = textEvent('1005', 'bloqueado');
    await settle();
    recorded.clear();
    await ingestion.ingest(channel, [blocked]);
    await settle();
    expect(await messageByProviderId(blocked.providerMessageId)).toBeUndefined();
    expect(recorded.messages).toEqual([]);
  });

  it('20 concurrent first messages of a new contact make one contact, one ticket, 20 messages', async () => {
    const events = Array.from({ length: 20 }, (_, i) =>
      textEvent('2000', `mensagem ${i}`, { party: { ...textEvent('2000', '').party, name: 'Rajada' } }),
    );
    await Promise.all(events.map((event) => ingestion.ingest(channel, [event])));
    const found = await rowsOf((tx) => tx.select().from(contacts).where(eq(contacts.telegramId, '2000')));
    expect(found).toHaveLength(1);
    const theirTickets = await rowsOf((tx) => tx.select().from(tickets).where(eq(tickets.contactId, found[0]!.id)));
    expect(theirTickets).toHaveLength(1);
    expect(theirTickets[0]!.unreadMessages).toBe(20);
    const stored = await rowsOf((tx) => tx.select().from(messages).where(eq(messages.ticketId, theirTickets[0]!.id)));
    expect(stored).toHaveLength(20);
  });

  it('a group message makes one group ticket with the participant as sender', async () => {
    const group = {
      chatId: '-100777',
      isGroup: true,
      name: 'Equipe Vendas',
      number: null,
      idField: 'telegramId' as const,
    };
    const fromAna = textEvent('-100777', 'bom dia', {
      party: { ...group, participant: { id: '3001', name: 'Ana', number: null, idField: 'telegramId' } },
    });
    const fromBia = textEvent('-100777', 'oi gente', {
      party: { ...group, participant: { id: '3002', name: 'Bia', number: null, idField: 'telegramId' } },
    });
    await ingestion.ingest(channel, [fromAna, fromBia]);
    await settle();
    const a = await messageByProviderId(fromAna.providerMessageId);
    const b = await messageByProviderId(fromBia.providerMessageId);
    expect(a!.ticketId).toBe(b!.ticketId);
    const ticket = await rowsOf(async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, a!.ticketId)))[0]);
    expect(ticket!.isGroup).toBe(true);
    const groupContact = await rowsOf(
      async (tx) => (await tx.select().from(contacts).where(eq(contacts.id, ticket!.contactId)))[0],
    );
    expect(groupContact).toMatchObject({ isGroup: true, name: 'Equipe Vendas', telegramId: '-100777' });
    const dto = recorded.messages.find((e) => e.message.id === a!.id)!.message;
    expect(dto.contact).toMatchObject({ name: 'Ana' });
    expect(recorded.messages.find((e) => e.message.id === b!.id)!.message.contact).toMatchObject({ name: 'Bia' });
  });
});

describe('batches', () => {
  const ticketOfChat = (chatId: string) =>
    rowsOf(async (tx) => {
      const [contact] = await tx.select().from(contacts).where(eq(contacts.telegramId, chatId));
      return contact ? tx.select().from(tickets).where(eq(tickets.contactId, contact.id)) : [];
    });

  it('messages that arrive while their lane is busy are stored together: known and new contacts, in order', async () => {
    // One lane: the first message is stored alone, everything pushed meanwhile goes in one batch.
    const lane = ingestionFor(t, { lanesPerChannel: 1 });
    const opener = textEvent('7001', 'primeira');
    await lane.ingest(channel, [opener]);
    await ingestion.ingest(channel, [textEvent('7004', 'antes do bloqueio')]);
    await rowsOf((tx) => tx.update(contacts).set({ blocked: true }).where(eq(contacts.telegramId, '7004')));
    adapter.files.set('file-7', { data: Buffer.from('JPG'), mime: 'image/jpeg', name: 'f.jpg' });
    const photo = textEvent('7001', 'legenda', {
      mediaType: 'image',
      media: { ref: 'file-7', mime: 'image/jpeg', name: null, size: 3 },
    });
    const reply = textEvent('7003', 'respondendo', { quotedProviderMessageId: opener.providerMessageId });
    const burst = [
      textEvent('7000', 'abre a fila'),
      textEvent('7001', 'segunda'),
      textEvent('7002', 'sou novo'),
      photo,
      reply,
      textEvent('7003', 'e de novo', { quotedProviderMessageId: reply.providerMessageId }),
      textEvent('7004', 'bloqueado'),
      textEvent('7002', 'ainda novo'),
      opener,
      textEvent('7001', 'terceira'),
    ];
    await settle();
    recorded.clear();
    const before = lane.stats();
    await Promise.all(burst.map((event) => lane.ingest(channel, [event])));
    await settle();
    expect(lane.stats()).toEqual({
      batches: before.batches + 1,
      batchedMessages: before.batchedMessages + burst.length - 1,
      fallbacks: before.fallbacks,
    });

    const [known] = await ticketOfChat('7001');
    expect(known).toMatchObject({ unreadMessages: 4, lastMessage: 'terceira', answered: false });
    const knownMessages = await rowsOf((tx) =>
      tx.select().from(messages).where(eq(messages.ticketId, known!.id)).orderBy(messages.id),
    );
    expect(knownMessages.map((m) => m.body)).toEqual(['primeira', 'segunda', 'legenda', 'terceira']);
    expect(knownMessages[2]).toMatchObject({ mediaStatus: 'pending', mediaRef: 'file-7', mediaType: 'image' });
    expect(await t.jobs.runPending(mediaJob(t))).toBe(1);
    expect(await messageByProviderId(photo.providerMessageId)).toMatchObject({ mediaStatus: 'ready' });

    const created = [...(await ticketOfChat('7002')), ...(await ticketOfChat('7003'))];
    expect(created).toHaveLength(2);
    expect(created[0]).toMatchObject({ status: 'pending', unreadMessages: 2, lastMessage: 'ainda novo' });
    expect(new Set(created.map((ticket) => ticket.protocol)).size).toBe(2);
    const logs = await rowsOf((tx) => tx.select().from(ticketLogs));
    for (const ticket of created)
      expect(logs.filter((l) => l.ticketId === ticket.id).map((l) => l.type)).toEqual(['create']);
    const original = knownMessages[0]!;
    // A quote of an earlier message resolves, and so does one of a message stored in the same batch.
    const [replyRow, againRow] = await rowsOf((tx) =>
      tx.select().from(messages).where(eq(messages.ticketId, created[1]!.id)).orderBy(messages.id),
    );
    expect(replyRow!.quotedMsgId).toBe(original.id);
    expect(againRow!.quotedMsgId).toBe(replyRow!.id);
    expect((await ticketOfChat('7004'))[0]!.unreadMessages).toBe(1);

    // Each stored message announced once, in order; each ticket once, as of the commit.
    const stored = recorded.messages.filter((e) => e.type === 'chat:create').map((e) => e.message.body);
    expect(stored).toEqual([
      'abre a fila',
      'segunda',
      'sou novo',
      'legenda',
      'respondendo',
      'e de novo',
      'ainda novo',
      'terceira',
    ]);
    expect(recorded.tickets.filter((e) => e.ticketId === known!.id)).toEqual([
      { type: 'ticket:update', ticketId: known!.id, notify: undefined },
    ]);
    for (const ticket of created) {
      expect(recorded.tickets.filter((e) => e.ticketId === ticket.id)).toEqual([
        { type: 'ticket:create', ticketId: ticket.id, notify: true },
      ]);
    }
    const replyDto = recorded.messages.find((e) => e.message.body === 'respondendo')!.message;
    expect(replyDto.quotedMsg).toMatchObject({ id: original.id, body: 'primeira' });
    const againDto = recorded.messages.find((e) => e.message.body === 'e de novo')!.message;
    expect(againDto.quotedMsg).toMatchObject({ id: replyRow!.id, body: 'respondendo' });
    expect(replyDto.ticket).toMatchObject({ id: created[1]!.id, status: 'pending' });
  });

  it('a ticket keeps when the customer wrote: the provider time, never after the arrival, never moved back', async () => {
    const H = 3600_000;
    const receivedAt = async (chatId: string) => (await ticketOfChat(chatId))[0]!.lastMessageReceivedAt!.getTime();
    // Alone: a message delivered two days late counts from when it was written.
    const late = Date.now() - 48 * H;
    await ingestion.ingest(channel, [textEvent('7020', 'escrita anteontem', { timestamp: late })]);
    expect(await receivedAt('7020')).toBe(late);
    // A provider clock ahead of ours counts from the arrival.
    const before = Date.now();
    await ingestion.ingest(channel, [textEvent('7020', 'do futuro', { timestamp: Date.now() + 10 * H })]);
    const arrived = await receivedAt('7020');
    expect(arrived).toBeGreaterThanOrEqual(before);
    expect(arrived).toBeLessThanOrEqual(Date.now());
    // An older message delivered after a newer one does not move it back.
    await ingestion.ingest(channel, [textEvent('7020', 'atrasada', { timestamp: late - H })]);
    expect(await receivedAt('7020')).toBe(arrived);

    // In a batch: the newest of the ticket's messages, by the same rules.
    const lane = ingestionFor(t, { lanesPerChannel: 1 });
    await lane.ingest(channel, [textEvent('7021', 'abre', { timestamp: late - 2 * H })]);
    expect(await receivedAt('7021')).toBe(late - 2 * H);
    const stats = lane.stats();
    await Promise.all(
      [
        textEvent('7022', 'ocupa a fila'),
        textEvent('7021', 'a', { timestamp: late }),
        textEvent('7021', 'b', { timestamp: late - H }),
      ].map((event) => lane.ingest(channel, [event])),
    );
    await settle();
    expect(lane.stats().batches).toBe(stats.batches + 1);
    expect(await receivedAt('7021')).toBe(late);
  });

  it('a batch that cannot commit is rolled back and stored message by message', async () => {
    const lane = ingestionFor(t, { lanesPerChannel: 1 });
    const old = textEvent('7010', 'atendimento antigo');
    await lane.ingest(channel, [old]);
    const [oldTicket] = await ticketOfChat('7010');
    await rowsOf((tx) => tx.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, oldTicket!.id)));
    // The replay finds no active ticket: the batch makes one, then meets the stored message and must not keep it.
    const before = lane.stats();
    const fresh = textEvent('7011', 'novo cliente');
    await Promise.all([textEvent('7012', 'abre'), old, fresh].map((event) => lane.ingest(channel, [event])));
    expect(lane.stats().fallbacks).toBe(before.fallbacks + 1);
    expect((await ticketOfChat('7010')).map((ticket) => ticket.status)).toEqual(['closed']);
    expect(await messageByProviderId(fresh.providerMessageId)).toMatchObject({ body: 'novo cliente' });
    const [freshTicket] = await ticketOfChat('7011');
    expect(freshTicket).toMatchObject({ status: 'pending', unreadMessages: 1 });
  });
});

describe('changes to stored messages', () => {
  it('edit, reaction, delete and acks (acks never go backwards)', async () => {
    const event = textEvent('4001', 'texto original');
    await ingestion.ingest(channel, [event]);
    const id = event.providerMessageId;
    await settle();
    recorded.clear();
    await ingestion.ingest(channel, [
      { kind: 'edit', providerMessageId: id, party: event.party, body: 'texto editado', timestamp: Date.now() },
      { kind: 'reaction', providerMessageId: id, party: event.party, reaction: '👍', timestamp: Date.now() },
      { kind: 'ack', providerMessageId: id, ack: 3, timestamp: Date.now() },
      { kind: 'ack', providerMessageId: id, ack: 2, timestamp: Date.now() },
      { kind: 'delete', providerMessageId: id, timestamp: Date.now() },
      { kind: 'session', status: 'CONNECTED' },
    ]);
    await settle();
    const row = await messageByProviderId(id);
    expect(row).toMatchObject({ edition: 'texto editado', reaction: '👍', ack: 3, isDeleted: true });
    expect(row!.editedAt).toBeInstanceOf(Date);
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(recorded.messages.map((e) => e.type)).toEqual(['chat:update', 'chat:update', 'chat:ack', 'chat:delete']);
  });

  it('a contact event updates the name and announces contacts.updated', async () => {
    await ingestion.ingest(channel, [textEvent('4002', 'oi')]);
    const updates: string[] = [];
    t.platform.events.subscribe('contacts.updated', (e) => {
      updates.push(e.contact.name);
    });
    await ingestion.ingest(channel, [
      { kind: 'contact', party: { ...textEvent('4002', '').party, name: 'Novo Nome' } },
    ]);
    await settle();
    expect(updates).toEqual(['Novo Nome']);
  });
});

describe('media', () => {
  it('a photo is stored by the download job and served through its signed link', async () => {
    adapter.files.set('file-1', { data: Buffer.from('PNGDATA'), mime: 'image/png', name: 'foto.png' });
    const event = textEvent('5001', '', {
      mediaType: 'image',
      media: { ref: 'file-1', mime: 'image/png', name: null, size: 7 },
    });
    await ingestion.ingest(channel, [event]);
    const pending = await messageByProviderId(event.providerMessageId);
    expect(pending).toMatchObject({ mediaStatus: 'pending', mediaRef: 'file-1' });
    expect(await t.jobs.runPending(mediaJob(t))).toBe(1);
    await settle();
    const ready = await messageByProviderId(event.providerMessageId);
    expect(ready).toMatchObject({ mediaStatus: 'ready', mediaMime: 'image/png', mediaSize: 7, mediaName: 'foto.png' });
    const update = recorded.messages.find((e) => e.type === 'chat:update' && e.message.id === ready!.id)!;
    const url = update.message.mediaUrl!;
    // Absolute (client-contract §20.3): clients open it directly, maybe from another origin.
    const publicUrl = t.platform.config.publicUrl;
    expect(url.startsWith(`${publicUrl}/api/media/`)).toBe(true);
    expect(url.slice(publicUrl.length)).toMatch(/^\/api\/media\/[\w-]+\.[\w-]+$/);
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('PNGDATA');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Shown by pages on another address than PUBLIC_URL too (the app's default policy is same-origin).
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="foto.png"/);

    const forged = url.slice(0, -3) + (url.endsWith('AAA') ? 'BBB' : 'AAA');
    const refused = await t.app.inject({ method: 'GET', url: forged });
    expect(refused.statusCode).toBe(404);
    const { createMediaLinks } = await import('../messages/index.js');
    const links = createMediaLinks(t.platform.secrets.jwtSecret, t.platform.config.publicUrl);
    const expired = links.sign({ tenantId: tenant, messageId: ready!.id, exp: Math.floor(Date.now() / 1000) - 1 });
    const gone = await t.app.inject({ method: 'GET', url: `/api/media/${expired}` });
    expect(gone.statusCode).toBe(403);
    expect(gone.json()).toEqual({ error: 'ERR_MEDIA_EXPIRED' });
    expect(ready!.mediaKey!.startsWith(`${tenant}/`)).toBe(true);
  });

  it('a file the provider no longer has fails for good; a transient error retries', async () => {
    const gone = textEvent('5002', '', {
      mediaType: 'application',
      media: { ref: 'missing', mime: null, name: 'a.pdf', size: null },
    });
    await ingestion.ingest(channel, [gone]);
    expect(await t.jobs.runPending(mediaJob(t))).toBe(1);
    expect(await messageByProviderId(gone.providerMessageId)).toMatchObject({ mediaStatus: 'failed', mediaKey: null });

    adapter.files.set('file-2', { data: Buffer.from('%PDF'), mime: 'application/pdf', name: 'b.pdf' });
    const flaky = textEvent('5002', '', {
      mediaType: 'application',
      media: { ref: 'file-2', mime: null, name: 'b.pdf', size: null },
    });
    await ingestion.ingest(channel, [flaky]);
    const row = await messageByProviderId(flaky.providerMessageId);
    const { ProviderError } = await import('../channels/index.js');
    adapter.fail(new ProviderError('timeout', false));
    await expect(mediaJob(t).handler({ tenantId: tenant, messageId: row!.id })).rejects.toThrow('timeout');
    expect(await messageByProviderId(flaky.providerMessageId)).toMatchObject({ mediaStatus: 'pending' });
    await mediaJob(t).handler({ tenantId: tenant, messageId: row!.id });
    expect(await messageByProviderId(flaky.providerMessageId)).toMatchObject({ mediaStatus: 'ready' });
  });
});

describe('tenancy', () => {
  it('the same provider id on another tenant is another message', async () => {
    const other = await t.createTenant();
    const otherChannel = await createTelegramChannel(t, other);
    const event = textEvent('6001', 'tenant 1');
    await ingestion.ingest(channel, [event]);
    await ingestion.ingest(otherChannel, [{ ...event, body: 'tenant 2' }]);
    const mine = await rowsOf((tx) =>
      tx
        .select()
        .from(messages)
        .where(and(eq(messages.messageId, event.providerMessageId))),
    );
    expect(mine.map((m) => m.body)).toEqual(['tenant 1']);
  });
});
