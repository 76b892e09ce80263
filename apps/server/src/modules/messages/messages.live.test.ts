/**
 * The calls of a live WhatsApp session through the app: an in-test stateful driver (with the optional LiveSession
 * operations) is run by the app's own session host, so every call goes route -> live operation -> session.
 * Participants (userId mapping; closed, non-group and hidden tickets refused), the three mention sends (exact
 * mentions, stored row, events, ack), group and phone-book sync (no duplicates, names kept), history import
 * (validation, progress, idempotent storage), checkContacts, contactsNumber, /noRedis (JSON and multipart = the normal
 * send) and another tenant's ids.
 */
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportMessagesStatus } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeTicket, setVisibility } from '../../test/ticket-fixtures.js';
import { recordEvents } from '../../test/messages-kit.js';
import {
  createLiveOps,
  type LiveSession,
  type OutboundMessage,
  type SessionContext,
  type SessionDriver,
} from '../channels/index.js';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import { liveMessagingOf } from './messages.live.routes.js';
import { messages } from './messages.tables.js';

const GROUP = '120363000000001@g.us';
const MEMBERS = [
  { number: '5511911110001', name: 'Ana', isAdmin: true },
  { number: '5511911110002', name: null, isAdmin: false },
  { number: '5511911110003', name: 'Caio', isAdmin: false },
];

interface Fake {
  /** Channels whose session has none of the optional operations. */
  bare: Set<number>;
  contexts: Map<number, SessionContext>;
  mentions: { to: string; body: string; mentions: string[] }[];
  sends: OutboundMessage[];
  groups: { id: string; subject: string; participants: number }[];
  phone: { number: string; name: string | null }[];
  checks: Map<string, { exists: boolean; number: string | null } | 'fail'>;
  history: { chatId: string | null; limit: number }[];
  onHistory: (context: SessionContext, chatId: string | null, limit: number) => Promise<void>;
}

const fake: Fake = {
  bare: new Set(),
  contexts: new Map(),
  mentions: [],
  sends: [],
  groups: [],
  phone: [],
  checks: new Map(),
  history: [],
  onHistory: async () => undefined,
};

function fakeLive(channelId: number, context: SessionContext, ProviderError: new (m: string, p: boolean) => Error) {
  let counter = 0;
  const live: LiveSession = {
    async send(message) {
      fake.sends.push(message);
      counter += 1;
      return { providerMessageId: `sent-${channelId}-${counter}`, ack: 1, timestamp: Date.now() };
    },
    async edit() {},
    async delete() {},
    async react() {},
    async downloadMedia() {
      return { data: Buffer.from('x'), mime: null, name: null };
    },
    async checkNumber(number) {
      const answer = fake.checks.get(number) ?? { exists: true, number };
      if (answer === 'fail') throw new ProviderError('onWhatsApp failed', false);
      return answer;
    },
    async logout() {},
    async close() {},
  };
  if (fake.bare.has(channelId)) return live;
  return Object.assign(live, {
    async groupParticipants(groupId: string) {
      if (groupId !== GROUP) throw new ProviderError('not a participant', true);
      return MEMBERS;
    },
    async listGroups() {
      return fake.groups;
    },
    async listContacts() {
      return fake.phone;
    },
    async requestHistory(chatId: string | null, limit: number) {
      fake.history.push({ chatId, limit });
      void fake.onHistory(context, chatId, limit);
      return limit;
    },
    async sendMention(to: string, body: string, mentions: string[]) {
      fake.mentions.push({ to, body, mentions });
      counter += 1;
      return { providerMessageId: `mention-${channelId}-${counter}`, ack: 1 as const, timestamp: Date.now() };
    },
  });
}

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let outsider: TestUser;
let channelId: number;
let bareChannelId: number;
let groupContactId: number;
let groupTicketId: number;

async function insertChannel(tenantId: number, name: string): Promise<number> {
  const [row] = await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
    tx
      .insert(channels)
      .values({
        tenantId,
        name,
        type: 'baileys',
        status: 'DISCONNECTED',
        webhookSecret: crypto.randomBytes(8).toString('hex'),
      })
      .returning({ id: channels.id }),
  );
  return row!.id;
}

async function insertContact(values: { name: string; number: string; isGroup?: boolean; tenantId?: number }) {
  const tenantId = values.tenantId ?? 1;
  const [row] = await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
    tx
      .insert(contacts)
      .values({ tenantId, name: values.name, number: values.number, isGroup: values.isGroup ?? false })
      .returning({ id: contacts.id }),
  );
  return row!.id;
}

async function contactRows(tenantId = 1) {
  return withTenant(t.platform.db, systemContext(tenantId), (tx) =>
    tx.select().from(contacts).where(eq(contacts.tenantId, tenantId)),
  );
}

async function until<T>(read: () => Promise<T | undefined | null | false>, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function channelStatus(id: number): Promise<string | undefined> {
  const [row] = await withTenant(t.platform.db, systemContext(1), (tx) =>
    tx.select({ status: channels.status }).from(channels).where(eq(channels.id, id)),
  );
  return row?.status;
}

async function messageRow(id: number) {
  const [row] = await withTenant(t.platform.db, systemContext(1), (tx) =>
    tx.select().from(messages).where(eq(messages.id, id)),
  );
  return row;
}

beforeAll(async () => {
  const { ProviderError } = await import('../channels/index.js');
  const driver: SessionDriver = {
    type: 'baileys',
    async open(channel, context) {
      fake.contexts.set(channel.id, context);
      await context.emit([{ kind: 'session', status: 'CONNECTED', number: '5511988887777' }]);
      return fakeLive(channel.id, context, ProviderError);
    },
    async downloadMedia() {
      return { data: Buffer.from('x'), mime: null, name: null };
    },
  };
  t = await createTestApp(
    { SESSION_LEASE_RENEW_MS: '150', SESSION_LEASE_TTL_MS: '5000', SESSION_ACTION_TIMEOUT_MS: '5000' },
    { sessionDrivers: [driver] },
  );
  ({ admin, agent } = await t.createStaff(1));
  const tenant2 = await t.createTenant();
  outsider = await t.createUser({ tenantId: tenant2, profile: 'admin' });
  channelId = await insertChannel(1, 'Zap');
  bareChannelId = await insertChannel(1, 'Zap sem extras');
  fake.bare.add(bareChannelId);
  for (const id of [channelId, bareChannelId]) {
    expect((await t.call(admin, 'POST', `/whatsappsession/${id}`)).statusCode).toBe(200);
  }
  await t.startBackground();
  await until(async () => (await channelStatus(channelId)) === 'CONNECTED');
  await until(async () => (await channelStatus(bareChannelId)) === 'CONNECTED');
  groupContactId = await insertContact({ name: 'Grupo da Loja', number: GROUP, isGroup: true });
  groupTicketId = await makeTicket(t, 1, { contactId: groupContactId, channelId, status: 'open', userId: agent.id });
  liveMessagingOf(t.platform).history.configure({ pollMs: 40, quietMs: 600, maxMs: 10_000 });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  fake.mentions.length = 0;
  fake.sends.length = 0;
  fake.history.length = 0;
  fake.checks.clear();
});

describe('POST /messages/listParticipants', () => {
  it('answers the members with the tenant contact of each number as userId, by group number or by ticket', async () => {
    const ana = await insertContact({ name: 'Ana Cliente', number: '5511911110001' });
    const byNumber = await t.call(agent, 'POST', '/messages/listParticipants', {
      ticket: GROUP,
      whatsappId: channelId,
      channel: 'baileys',
    });
    expect(byNumber.statusCode).toBe(200);
    expect(byNumber.json().participants).toEqual([
      { id: '5511911110001@c.us', number: '5511911110001', name: 'Ana', isAdmin: true, userId: ana },
      { id: '5511911110002@c.us', number: '5511911110002', name: null, isAdmin: false, userId: null },
      { id: '5511911110003@c.us', number: '5511911110003', name: 'Caio', isAdmin: false, userId: null },
    ]);
    const byTicket = await t.call(agent, 'POST', '/messages/listParticipants', { ticket: { id: groupTicketId } });
    expect(byTicket.json()).toEqual(byNumber.json());
  });

  it('refuses closed tickets and tickets that are not a group (ERR_VALIDATION)', async () => {
    const closedGroup = await insertContact({ name: 'Grupo velho', number: '120363000000009@g.us', isGroup: true });
    const closed = await makeTicket(t, 1, { contactId: closedGroup, channelId, status: 'closed' });
    const res = await t.call(admin, 'POST', '/messages/listParticipants', { ticket: { id: closed } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'ticket' });
    const byNumber = await t.call(admin, 'POST', '/messages/listParticipants', { ticket: '120363000000009@g.us' });
    expect(byNumber.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'ticket' });

    const person = await insertContact({ name: 'Pessoa', number: '5511977770001' });
    const direct = await makeTicket(t, 1, { contactId: person, channelId, status: 'open', userId: admin.id });
    const notGroup = await t.call(admin, 'POST', '/messages/listParticipants', { ticket: { id: direct } });
    expect(notGroup.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'ticket' });
  });

  it('hides tickets the agent may not see, and another tenant’s', async () => {
    const hiddenGroup = await insertContact({ name: 'Grupo alheio', number: '120363000000002@g.us', isGroup: true });
    const hidden = await makeTicket(t, 1, { contactId: hiddenGroup, channelId, status: 'open', userId: admin.id });
    await setVisibility(t, 1, { NotViewAssignedTickets: 'enabled' });
    try {
      const res = await t.call(agent, 'POST', '/messages/listParticipants', { ticket: { id: hidden } });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
      const byNumber = await t.call(agent, 'POST', '/messages/listParticipants', { ticket: '120363000000002@g.us' });
      expect(byNumber.json().error).toBe('ERR_NO_TICKET_FOUND');
    } finally {
      await setVisibility(t, 1, { NotViewAssignedTickets: 'disabled' });
    }
    const foreign = await t.call(outsider, 'POST', '/messages/listParticipants', { ticket: { id: groupTicketId } });
    expect(foreign.statusCode).toBe(404);
    const foreignNumber = await t.call(outsider, 'POST', '/messages/listParticipants', { ticket: GROUP });
    expect(foreignNumber.statusCode).toBe(404);
  });

  it('answers ERR_CHANNEL_TYPE_UNSUPPORTED when the session has no group operations', async () => {
    const group = await insertContact({ name: 'Grupo B', number: '120363000000003@g.us', isGroup: true });
    const ticket = await makeTicket(t, 1, { contactId: group, channelId: bareChannelId, status: 'open' });
    const res = await t.call(admin, 'POST', '/messages/listParticipants', { ticket: { id: ticket } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_CHANNEL_TYPE_UNSUPPORTED');
  });
});

describe('mentions', () => {
  async function sentRow(id: number) {
    return until(async () => {
      const row = await messageRow(id);
      return row?.messageId ? row : null;
    });
  }

  it('mentionMessage: the listed members (ids or numbers), tags in the body, stored and announced like a send', async () => {
    const events = recordEvents(t);
    const res = await t.call(agent, 'POST', '/messages/mentionMessage', {
      body: 'Olá @5511911110001',
      ticket: { id: groupTicketId, contact: { name: 'forjado' } },
      channel: 'baileys',
      whatsappId: channelId,
      participants: ['5511911110001@c.us', 5511911110003, '5511911110003'],
    });
    expect(res.statusCode).toBe(200);
    const message = res.json();
    expect(message).toMatchObject({ fromMe: true, body: 'Olá @5511911110001\n@5511911110003', ack: 0 });
    const row = await sentRow(message.id);
    expect(fake.mentions).toEqual([
      { to: GROUP, body: 'Olá @5511911110001\n@5511911110003', mentions: ['5511911110001', '5511911110003'] },
    ]);
    expect(row).toMatchObject({ status: 'sended', ack: 1, userId: agent.id, ticketId: groupTicketId, sendAttempts: 1 });
    expect(fake.sends).toEqual([]);
    await until(async () => events.messages.some((e) => e.type === 'chat:ack' && e.message.id === message.id));
    expect(events.messages.filter((e) => e.message.id === message.id).map((e) => e.type)).toEqual([
      'chat:create',
      'chat:ack',
    ]);
    expect(events.tickets).toContainEqual({ type: 'ticket:update', ticketId: groupTicketId, notify: undefined });
  });

  it('mentionAllMessage tags every member; ghostMessage mentions every member with the body untouched', async () => {
    const all = await t.call(agent, 'POST', '/messages/mentionAllMessage', {
      body: 'Reunião amanhã',
      ticket: { id: groupTicketId },
      whatsappId: channelId,
    });
    expect(all.statusCode).toBe(200);
    await sentRow(all.json().id);
    const ghost = await t.call(agent, 'POST', '/messages/ghostMessage', {
      body: 'Lembrete',
      ticket: groupTicketId,
      whatsappId: channelId,
    });
    expect(ghost.statusCode).toBe(200);
    expect(ghost.json().body).toBe('Lembrete');
    await sentRow(ghost.json().id);
    const everyone = MEMBERS.map((m) => m.number);
    expect(fake.mentions).toEqual([
      { to: GROUP, body: 'Reunião amanhã\n@5511911110001 @5511911110002 @5511911110003', mentions: everyone },
      { to: GROUP, body: 'Lembrete', mentions: everyone },
    ]);
  });

  it('refuses bad participants, closed, hidden and foreign tickets, and sessions without mentions', async () => {
    const bad = await t.call(agent, 'POST', '/messages/mentionMessage', {
      body: 'x',
      ticket: { id: groupTicketId },
      participants: ['not-a-number'],
    });
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'participants' });
    const foreign = await t.call(outsider, 'POST', '/messages/ghostMessage', { body: 'x', ticket: groupTicketId });
    expect(foreign.statusCode).toBe(404);
    const closedGroup = await insertContact({ name: 'Fechado', number: '120363000000004@g.us', isGroup: true });
    const closed = await makeTicket(t, 1, { contactId: closedGroup, channelId, status: 'closed' });
    const res = await t.call(admin, 'POST', '/messages/mentionAllMessage', { body: 'x', ticket: { id: closed } });
    expect(res.json().error).toBe('ERR_TICKET_CLOSED');
    const bareGroup = await insertContact({ name: 'Sem', number: '120363000000005@g.us', isGroup: true });
    const bare = await makeTicket(t, 1, { contactId: bareGroup, channelId: bareChannelId, status: 'open' });
    const unsupported = await t.call(admin, 'POST', '/messages/ghostMessage', { body: 'x', ticket: { id: bare } });
    expect(unsupported.json().error).toBe('ERR_CHANNEL_TYPE_UNSUPPORTED');
    expect(fake.mentions).toEqual([]);
    const stored = await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx
        .select()
        .from(messages)
        .where(and(eq(messages.ticketId, bare))),
    );
    expect(stored).toEqual([]);
  });
});

describe('POST /groups/sync and /contacts/sync', () => {
  it('upserts one group contact per group, twice without duplicates, keeping names the tenant gave', async () => {
    const edited = await insertContact({ name: 'Nome editado', number: '120363000000021@g.us', isGroup: true });
    const placeholder = await insertContact({
      name: '120363000000022@g.us',
      number: '120363000000022@g.us',
      isGroup: true,
    });
    // Named by ingestion with the group's bare id (a message came before any name was known).
    const bareId = await insertContact({ name: '120363000000024', number: '120363000000024@g.us', isGroup: true });
    fake.groups = [
      { id: '120363000000021@g.us', subject: 'Assunto novo', participants: 3 },
      { id: '120363000000022@g.us', subject: 'Vendas', participants: 5 },
      { id: '120363000000023@g.us', subject: 'Suporte', participants: 2 },
      { id: '120363000000024@g.us', subject: 'Financeiro', participants: 4 },
    ];
    expect((await t.call(agent, 'POST', '/groups/sync')).statusCode).toBe(403);
    const first = await t.call(admin, 'POST', '/groups/sync');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ total: 4, created: 1, renamed: 2 });
    const second = await t.call(admin, 'POST', '/groups/sync');
    expect(second.json()).toMatchObject({ total: 4, created: 0, renamed: 0 });
    const rows = (await contactRows()).filter((c) => c.number?.startsWith('12036300000002'));
    expect(rows.map((r) => [r.number, r.name, r.isGroup]).sort()).toEqual([
      ['120363000000021@g.us', 'Nome editado', true],
      ['120363000000022@g.us', 'Vendas', true],
      ['120363000000023@g.us', 'Suporte', true],
      ['120363000000024@g.us', 'Financeiro', true],
    ]);
    expect(rows.find((r) => r.id === bareId)?.name).toBe('Financeiro');
    expect(rows.find((r) => r.id === edited)?.name).toBe('Nome editado');
    expect(rows.find((r) => r.id === placeholder)?.name).toBe('Vendas');
  });

  it('upserts the phone’s contacts, no duplicates on a second run, a name only where none was given', async () => {
    await insertContact({ name: 'Cliente VIP', number: '5511933330001' });
    await insertContact({ name: '5511933330002', number: '5511933330002' });
    fake.phone = [
      { number: '5511933330001', name: 'Zé do telefone' },
      { number: '5511933330002', name: 'Maria' },
      { number: '5511933330003', name: null },
      { number: '5511933330004', name: 'João' },
    ];
    const first = await t.call(admin, 'POST', '/contacts/sync');
    expect(first.json()).toMatchObject({ total: 4, created: 2, renamed: 1 });
    const second = await t.call(admin, 'POST', '/contacts/sync');
    expect(second.json()).toMatchObject({ total: 4, created: 0, renamed: 0 });
    const rows = (await contactRows()).filter((c) => c.number?.startsWith('55119333300'));
    expect(rows.map((r) => [r.number, r.name]).sort()).toEqual([
      ['5511933330001', 'Cliente VIP'],
      ['5511933330002', 'Maria'],
      ['5511933330003', '5511933330003'],
      ['5511933330004', 'João'],
    ]);
    expect(rows.every((r) => !r.isGroup)).toBe(true);
  });
});

describe('POST /messages/syncOld and /syncOldByUser', () => {
  it('refuses a limit that is not a positive whole number, agents, and another tenant’s channel', async () => {
    for (const limit of [0, -5, 'dez', 1.5, '']) {
      const res = await t.call(admin, 'POST', '/messages/syncOld', { whatsappId: channelId, limit });
      expect(res.statusCode, String(limit)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'limit' });
    }
    const byUser = await t.call(admin, 'POST', '/messages/syncOldByUser', {
      whatsappId: channelId,
      limit: 5,
      contactId: 'abc',
    });
    expect(byUser.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'contactId' });
    expect((await t.call(agent, 'POST', '/messages/syncOld', { whatsappId: channelId, limit: 5 })).statusCode).toBe(
      403,
    );
    const foreign = await t.call(outsider, 'POST', '/messages/syncOld', { whatsappId: channelId, limit: 5 });
    expect(foreign.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect(fake.history).toEqual([]);
  });

  it('asks the session for history and reports progress until the count asked for is stored, then refresh', async () => {
    const progress: ({ action: 'update'; status: ImportMessagesStatus } | { action: 'refresh' })[] = [];
    const stop = t.platform.events.subscribe('messages.import_progress', (e) => {
      if (e.channelId === channelId) progress.push(e.progress);
    });
    const old = Date.now() - 86_400_000;
    fake.onHistory = async (context, chatId, limit) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const events = Array.from({ length: limit }, (_, i) => ({
        kind: 'message' as const,
        providerMessageId: `hist-${i}`,
        party: { chatId: chatId!, isGroup: false, name: 'Histórico', number: chatId, idField: 'number' as const },
        fromMe: i % 2 === 0,
        timestamp: old + i * 1000,
        mediaType: 'chat' as const,
        body: `antiga ${i}`,
        media: null,
        quotedProviderMessageId: null,
      }));
      await context.emit(events.slice(0, 2));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Delivered again with the rest: stored once.
      await context.emit(events);
    };
    const res = await t.call(admin, 'POST', '/messages/syncOldByUser', {
      whatsappId: channelId,
      limit: '4',
      contactId: '5511944440001@c.us',
      tenantId: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ requested: 4 });
    expect(fake.history).toEqual([{ chatId: '5511944440001', limit: 4 }]);
    await liveMessagingOf(t.platform).history.idle();
    stop();
    const updates = progress.filter((p) => p.action === 'update').map((p) => p.status);
    expect(updates[0]).toEqual({ this: 0, all: 4, date: null });
    expect(updates.at(-2)).toEqual({ this: 4, all: 4, date: new Date(old).toISOString() });
    expect(updates.at(-1)).toEqual({ this: -1, all: -1, date: new Date(old).toISOString() });
    expect(progress.at(-1)).toEqual({ action: 'refresh' });
    const counts = updates.slice(1, -1).map((s) => s.this);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const [contact] = (await contactRows()).filter((c) => c.number === '5511944440001');
    const stored = await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.select().from(messages).where(eq(messages.contactId, contact!.id)),
    );
    expect(stored.map((m) => m.body).sort()).toEqual(['antiga 0', 'antiga 1', 'antiga 2', 'antiga 3']);
  });

  it('ends after a quiet period when fewer messages than asked for arrive (this = all = -1)', async () => {
    const progress: ImportMessagesStatus[] = [];
    const stop = t.platform.events.subscribe('messages.import_progress', (e) => {
      if (e.progress.action === 'update') progress.push(e.progress.status);
    });
    fake.onHistory = async () => undefined;
    const res = await t.call(admin, 'POST', '/messages/syncOld', { whatsappId: channelId, limit: 50 });
    expect(res.statusCode).toBe(200);
    expect(fake.history).toEqual([{ chatId: null, limit: 50 }]);
    await liveMessagingOf(t.platform).history.idle();
    stop();
    expect(progress).toEqual([
      { this: 0, all: 50, date: null },
      { this: -1, all: -1, date: null },
    ]);
  });
});

describe('POST /checkContacts and GET /contactsNumber/{number}', () => {
  it('checks every contact with a number (not groups) and counts the answers', async () => {
    const tenant = await t.createTenant();
    const boss = await t.createUser({ tenantId: tenant, profile: 'admin' });
    const own = await insertChannel(tenant, 'Zap 3');
    expect((await t.call(boss, 'POST', `/whatsappsession/${own}`)).statusCode).toBe(200);
    await until(async () => {
      const [row] = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
        tx.select({ status: channels.status }).from(channels).where(eq(channels.id, own)),
      );
      return row?.status === 'CONNECTED';
    });
    await insertContact({ tenantId: tenant, name: 'A', number: '5511955550001' });
    await insertContact({ tenantId: tenant, name: 'B', number: '5511955550002' });
    await insertContact({ tenantId: tenant, name: 'C', number: '5511955550003' });
    await insertContact({ tenantId: tenant, name: 'G', number: '120363000000031@g.us', isGroup: true });
    fake.checks.set('5511955550002', { exists: false, number: null });
    fake.checks.set('5511955550003', 'fail');
    const res = await t.call(boss, 'POST', '/checkContacts');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ checked: 3, valid: 1, invalid: 1, failed: 1 });
    expect(res.json().message).toContain('3 contacts checked');
    const agentOfTenant = await t.createUser({ tenantId: tenant, profile: 'user' });
    expect((await t.call(agentOfTenant, 'POST', '/checkContacts')).statusCode).toBe(403);
  });

  it('answers the contact with the number WhatsApp knows, or the catalogue errors', async () => {
    fake.checks.set('551188887777', { exists: true, number: '5511988887777' });
    const found = await t.call(agent, 'GET', '/contactsNumber/551188887777');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ number: '5511988887777', isGroup: false });
    const again = await t.call(agent, 'GET', '/contactsNumber/551188887777');
    expect(again.json().id).toBe(found.json().id);

    fake.checks.set('5511900000000', { exists: false, number: null });
    const missing = await t.call(agent, 'GET', '/contactsNumber/5511900000000');
    expect(missing.json().error).toBe('ERR_CONTACTS_NOT_EXISTS_WHATSAPP');
    fake.checks.set('5511900000001', 'fail');
    const failed = await t.call(agent, 'GET', '/contactsNumber/5511900000001');
    expect(failed.json().error).toBe('ERR_WAPP_CHECK_CONTACT');
    for (const bad of ['55119abc', '+5511988887777', '123']) {
      const res = await t.call(agent, 'GET', `/contactsNumber/${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });
});

describe('POST /noRedis', () => {
  let ticketId: number;
  beforeAll(async () => {
    const person = await insertContact({ name: 'Rápido', number: '5511966660001' });
    ticketId = await makeTicket(t, 1, { contactId: person, channelId, status: 'open', userId: agent.id });
  });

  const shape = (m: Record<string, unknown>) => ({
    fromMe: m.fromMe,
    body: m.body,
    ack: m.ack,
    ticketId: m.ticketId,
    contactId: m.contactId,
    mediaType: m.mediaType,
    userId: m.userId,
  });

  it('JSON: the same stored message and events as POST /messages/{ticketId}', async () => {
    const events = recordEvents(t);
    const normal = await t.call(agent, 'POST', `/messages/${ticketId}`, { body: 'pelo caminho normal', fromMe: true });
    const fast = await t.call(agent, 'POST', '/noRedis', {
      whatsappId: channelId,
      whatsappType: 'baileys',
      number: '5511966660001',
      message: {
        body: 'pelo caminho rápido',
        fromMe: true,
        read: 1,
        mediaUrl: '',
        idFront: 'front-1',
        quotedMsg: null,
      },
      sticker: false,
      voice: false,
      ticket: { id: ticketId, status: 'closed', channelId: 999 },
      group: false,
      quotedMsg: null,
    });
    expect(fast.statusCode).toBe(200);
    expect(shape(fast.json())).toEqual({ ...shape(normal.json()), body: 'pelo caminho rápido' });
    await until(async () => fake.sends.length === 2);
    expect(fake.sends.map((s) => [s.to, s.body]).sort()).toEqual([
      ['5511966660001', 'pelo caminho normal'],
      ['5511966660001', 'pelo caminho rápido'],
    ]);
    await until(async () => events.messages.filter((e) => e.type === 'chat:ack').length === 2);
    const kinds = (id: number) => events.messages.filter((e) => e.message.id === id).map((e) => e.type);
    expect(kinds(fast.json().id)).toEqual(kinds(normal.json().id));
    const repeat = await t.call(agent, 'POST', '/noRedis', {
      whatsappId: channelId,
      message: { body: 'pelo caminho rápido', idFront: 'front-1' },
      ticket: { id: ticketId },
    });
    expect(repeat.json().id).toBe(fast.json().id);
  });

  it('multipart: the file goes the same way', async () => {
    const boundary = '----h7boundary';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(
        part('whatsappId', String(channelId)) +
          part('whatsappType', 'baileys') +
          part('number', '5511966660001') +
          part('message', 'null') +
          part('file', 'true') +
          part('voice', 'false') +
          part('isSticker', 'false') +
          part('group', 'false') +
          part('ticket', JSON.stringify({ id: ticketId, contact: { id: 1 } })) +
          `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/noRedis',
      headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ mediaType: 'image', body: 'foto.png', fromMe: true, ticketId });
    await until(async () => fake.sends.length === 1);
    expect(fake.sends[0]).toMatchObject({ to: '5511966660001', mediaType: 'image' });
    expect(fake.sends[0]!.media?.data).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  });

  it('refuses another channel than the ticket’s, another tenant’s ticket and a bad message', async () => {
    const wrong = await t.call(agent, 'POST', '/noRedis', {
      whatsappId: bareChannelId,
      message: { body: 'x' },
      ticket: { id: ticketId },
    });
    expect(wrong.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'whatsappId' });
    const foreign = await t.call(outsider, 'POST', '/noRedis', { message: { body: 'x' }, ticket: { id: ticketId } });
    expect(foreign.statusCode).toBe(404);
    const empty = await t.call(agent, 'POST', '/noRedis', { message: { body: '  ' }, ticket: { id: ticketId } });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'message.body' });
    const noTicket = await t.call(agent, 'POST', '/noRedis', { message: { body: 'x' } });
    expect(noTicket.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'ticket' });
  });
});

describe('live operations on a node that does not run the session', () => {
  it('go through the session queue to the owner and come back', async () => {
    const ops = createLiveOps({
      jobs: t.jobs,
      host: { live: () => null, act: async () => null },
      ownerAlive: async () => true,
      timeoutMs: 5_000,
      pollMs: 50,
    });
    const members = await ops.run({ op: 'groupParticipants', channelId, groupId: GROUP });
    expect(members).toEqual(MEMBERS);
    await expect(ops.run({ op: 'listGroups', channelId: bareChannelId })).rejects.toMatchObject({
      name: 'LiveOpUnsupportedError',
    });
    await expect(ops.run({ op: 'groupParticipants', channelId, groupId: 'nope@g.us' })).rejects.toMatchObject({
      name: 'ProviderError',
      permanent: true,
    });
  });
});
