/**
 * A QR session's login history imported through ingestion (H8): imported messages stored once, read, marked
 * (sendType 'import' -> syncTime), no unread, no chat:create / ticket:create / notification, the import queue on new
 * tickets, an older imported message never replacing a ticket's newest, progress events in order, the created
 * tickets closed at the end when asked (not those with live messages), and the channel's options as credentials.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportMessagesStatus } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { loadChannelCredentials, type ChannelCredentials, type InboundEvent } from '../channels/index.js';
import { loadMessageDto, createMediaLinks } from '../messages/index.js';
import { messages } from '../messages/messages.tables.js';
import { queues } from '../queues/queues.tables.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  recordEvents,
  settle,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';
import { ticketLogs, tickets } from '../tickets/tickets.tables.js';
import { IMPORT_PROGRESS_EVERY } from './ingestion.import.js';
import type { Ingestion } from './ingestion.service.js';

type Progress = { action: 'update'; status: ImportMessagesStatus } | { action: 'refresh' };

let t: TestApp;
let tenant: number;
let queueId: number;
let ingestion: Ingestion;
let recorded: ReturnType<typeof recordEvents>;
const progress: { channelId: number; progress: Progress }[] = [];

const rowsOf = async <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(t.platform.db, systemContext(tenant), fn);
const messageRows = (ids: string[]) =>
  rowsOf((tx) => tx.select().from(messages).where(inArray(messages.messageId, ids)));
const ticketRow = async (id: number) =>
  rowsOf(async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, id)))[0]!);

const DAY = 86_400_000;
const imported = (chatId: string, body: string, daysAgo: number, id?: string) =>
  textEvent(chatId, body, {
    imported: true,
    timestamp: Date.now() - daysAgo * DAY,
    ...(id ? { providerMessageId: id } : {}),
  });
const batch = (total: number): InboundEvent => ({ kind: 'history-import', total, done: false });
const END: InboundEvent = { kind: 'history-import', total: 0, done: true };

async function importChannel(name: string, closeTickets: boolean): Promise<ChannelCredentials> {
  const channel = await createTelegramChannel(t, tenant, { name });
  return { ...channel, historyImport: { from: null, to: null, groups: false, queueId, closeTickets } };
}

const progressOf = (channel: ChannelCredentials) =>
  progress.filter((p) => p.channelId === channel.id).map((p) => p.progress);

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(new TestAdapter()) });
  tenant = await t.createTenant();
  const [queue] = await rowsOf((tx) => tx.insert(queues).values({ tenantId: tenant, queue: 'Histórico' }).returning());
  queueId = queue!.id;
  ingestion = ingestionFor(t);
  recorded = recordEvents(t);
  t.platform.events.subscribe('messages.import_progress', (e) => {
    progress.push({ channelId: e.channelId, progress: e.progress });
  });
});
afterAll(async () => t.close());
beforeEach(() => recorded.clear());

describe('history import', () => {
  it('stores imported messages once, read and marked, without unread, events or notification; queue; progress', async () => {
    const channel = await importChannel('Importa', false);
    const first = [imported('7001', 'pedido antigo', 3), imported('7001', 'ainda lá?', 2), imported('7002', 'oi', 1)];
    await ingestion.ingest(channel, [batch(3), ...first]);
    // The same history delivered again (a second history chunk repeats a message) is stored once.
    await ingestion.ingest(channel, [batch(4), first[0]!]);
    await ingestion.ingest(channel, [END]);
    await settle();

    const rows = await messageRows(first.map((e) => e.providerMessageId));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ read: true, sendType: 'import', fromMe: false, ack: 0 });
    const ticketIds = [...new Set(rows.map((r) => r.ticketId))];
    expect(ticketIds).toHaveLength(2);
    for (const id of ticketIds) {
      expect(await ticketRow(id)).toMatchObject({ status: 'pending', unreadMessages: 0, queueId, answered: false });
    }
    const ticket7001 = await ticketRow(rows.find((r) => r.body === 'ainda lá?')!.ticketId);
    expect(ticket7001.lastMessage).toBe('ainda lá?');
    expect(ticket7001.lastMessageAt!.getTime()).toBe(first[1]!.timestamp);
    // Nothing announced per message: no chat:create, no ticket:create, so no notification:new either.
    expect(recorded.messages).toEqual([]);
    expect(recorded.tickets).toEqual([]);
    // The DTO tells it was imported (client-contract §20.3 syncTime).
    const links = createMediaLinks(t.platform.secrets.jwtSecret, t.platform.config.publicUrl);
    const dto = await rowsOf((tx) => loadMessageDto(tx, rows[0]!, links));
    expect(dto.syncTime).toBe(rows[0]!.createdAt.toISOString());

    const date = new Date(first[0]!.timestamp).toISOString();
    expect(progressOf(channel)).toEqual([
      { action: 'update', status: { this: 0, all: 3, date: null } },
      { action: 'update', status: { this: 3, all: 3, date } },
      { action: 'update', status: { this: 3, all: 4, date } },
      { action: 'update', status: { this: 4, all: 4, date } },
      { action: 'update', status: { this: -1, all: -1, date } },
      { action: 'refresh' },
    ]);
  });

  it('a live message is unaffected: it still counts unread and announces; an older import does not hide it', async () => {
    const channel = await importChannel('Misto', false);
    const live = textEvent('7010', 'mensagem nova');
    await ingestion.ingest(channel, [live]);
    await settle();
    const [liveRow] = await messageRows([live.providerMessageId]);
    expect(recorded.messages.map((m) => m.type)).toEqual(['chat:create']);
    expect(recorded.tickets).toEqual([{ type: 'ticket:create', ticketId: liveRow!.ticketId, notify: true }]);
    recorded.clear();
    const old = imported('7010', 'mensagem velha', 5);
    await ingestion.ingest(channel, [batch(1), old, END]);
    await settle();
    const [oldRow] = await messageRows([old.providerMessageId]);
    expect(oldRow!.ticketId).toBe(liveRow!.ticketId);
    expect(await ticketRow(liveRow!.ticketId)).toMatchObject({
      unreadMessages: 1,
      lastMessage: 'mensagem nova',
      queueId: null,
      answered: false,
    });
    expect(recorded.messages).toEqual([]);
    expect(recorded.tickets).toEqual([]);
    // A plain message of the same contact after the import is a normal one again.
    await ingestion.ingest(channel, [textEvent('7010', 'e agora?')]);
    expect(await ticketRow(liveRow!.ticketId)).toMatchObject({ unreadMessages: 2, lastMessage: 'e agora?' });
  });

  it('closes the tickets the import created at the end, except one a customer wrote to meanwhile', async () => {
    const channel = await importChannel('Fecha', true);
    const before = textEvent('7020', 'já tinha ticket');
    await ingestion.ingest(channel, [before]);
    const events = [imported('7020', 'h1', 4), imported('7021', 'h2', 4), imported('7022', 'h3', 4)];
    await ingestion.ingest(channel, [batch(3), ...events]);
    // 7022 writes live during the import: that ticket has a real message now and stays open.
    await ingestion.ingest(channel, [textEvent('7022', 'estou aqui agora')]);
    const rowsBefore = await messageRows(events.map((e) => e.providerMessageId));
    const ticketOf = (body: string) => rowsBefore.find((r) => r.body === body)!.ticketId;
    await ingestion.ingest(channel, [END]);
    await settle();
    expect((await ticketRow(ticketOf('h1'))).status).toBe('pending');
    const closed = await ticketRow(ticketOf('h2'));
    expect(closed).toMatchObject({ status: 'closed', unreadMessages: 0 });
    expect(closed.closedAt).not.toBeNull();
    expect((await ticketRow(ticketOf('h3'))).status).toBe('pending');
    const logs = await rowsOf((tx) =>
      tx
        .select()
        .from(ticketLogs)
        .where(eq(ticketLogs.ticketId, ticketOf('h2'))),
    );
    expect(logs.map((l) => [l.type, l.details])).toEqual([
      ['create', { status: 'pending', channelId: channel.id, queueId }],
      ['closed', { reason: 'import' }],
    ]);
    expect(progressOf(channel).slice(-2)).toEqual([
      { action: 'update', status: { this: -1, all: -1, date: new Date(events[0]!.timestamp).toISOString() } },
      { action: 'refresh' },
    ]);
  });

  it('ends an import whose end never comes once no batch was announced for the quiet period', async () => {
    const quiet = ingestionFor(t, { importQuietMs: 2_000 });
    const channel = await importChannel('Silencia', true);
    const first = imported('7040', 'q1', 3);
    await quiet.ingest(channel, [batch(1), first]);
    const [row] = await messageRows([first.providerMessageId]);
    // Still importing right after a batch: nothing ended, the ticket stays.
    expect(progressOf(channel).some((p) => p.action === 'refresh')).toBe(false);
    expect((await ticketRow(row!.ticketId)).status).toBe('pending');
    const deadline = Date.now() + 15_000;
    while (!progressOf(channel).some((p) => p.action === 'refresh') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await settle();
    expect((await ticketRow(row!.ticketId)).status).toBe('closed');
    expect(progressOf(channel).slice(-2)).toEqual([
      { action: 'update', status: { this: -1, all: -1, date: new Date(first.timestamp).toISOString() } },
      { action: 'refresh' },
    ]);
    // A provider's own end arriving later finds nothing left to close.
    await quiet.ingest(channel, [END]);
    expect(progressOf(channel).filter((p) => p.action === 'refresh')).toHaveLength(2);
  });

  it('leaves the created tickets open when the channel does not ask to close them', async () => {
    const channel = await importChannel('Mantém', false);
    const event = imported('7030', 'fica aberto', 2);
    await ingestion.ingest(channel, [batch(1), event, END]);
    const [row] = await messageRows([event.providerMessageId]);
    expect((await ticketRow(row!.ticketId)).status).toBe('pending');
  });

  it('imported messages arriving together are not stored in a batch of customers’ messages', async () => {
    const channel = await importChannel('Juntas', false);
    const events = Array.from({ length: 6 }, (_, i) => imported('7040', `junto ${i}`, 1));
    await ingestion.ingest(channel, [batch(6)]);
    await Promise.all(events.map((event) => ingestion.ingest(channel, [event])));
    const rows = await messageRows(events.map((e) => e.providerMessageId));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row).toMatchObject({ read: true, sendType: 'import' });
    expect(await ticketRow(rows[0]!.ticketId)).toMatchObject({ unreadMessages: 0, queueId });
    expect(recorded.messages).toEqual([]);
  });

  it('publishes progress every so many messages within a long batch', async () => {
    const channel = await importChannel('Longo', false);
    const n = IMPORT_PROGRESS_EVERY + 5;
    const events = Array.from({ length: n }, (_, i) => imported(`71${String(i).padStart(3, '0')}`, `m${i}`, 1));
    await ingestion.ingest(channel, [batch(n), ...events, END]);
    const updates = progressOf(channel).flatMap((p) => (p.action === 'update' ? [[p.status.this, p.status.all]] : []));
    expect(updates).toEqual([
      [0, n],
      [IMPORT_PROGRESS_EVERY, n],
      [n, n],
      [-1, -1],
    ]);
  });

  it('reads the channel import options into the credentials (groups from either switch)', async () => {
    const from = new Date('2025-01-01T00:00:00Z');
    const to = new Date('2025-02-01T00:00:00Z');
    const made = await createTelegramChannel(t, tenant, {
      name: 'Opções',
      importMessages: 'enabled',
      importOldMessages: from,
      importRecentMessages: to,
      importGroupMessages: 'enabled',
      closedTicketsPostImported: 'enabled',
      queueIdImportMessages: queueId,
    });
    expect(made.historyImport).toEqual({
      from: from.getTime(),
      to: to.getTime(),
      groups: true,
      queueId,
      closeTickets: true,
    });
    const off = await createTelegramChannel(t, tenant, { name: 'Sem', importOldMessagesGroups: 'enabled' });
    expect(off.historyImport).toBeNull();
    const reread = await rowsOf((tx) => loadChannelCredentials(tx, made.id));
    expect(reread!.historyImport!.groups).toBe(true);
  });
});
