/** The messages API: history paging, delete/edit/react (and provider refusals), forward, search, tenant isolation. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto, MessageListResponse } from '@conversa/shared';
import { MESSAGES_PAGE_SIZE } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { ProviderError, type ChannelCredentials } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import type { Ingestion } from '../inbox/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { messages } from './messages.tables.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  mediaJob,
  sendJob,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';

let t: TestApp;
let tenant: number;
let agent: TestUser;
let outsider: TestUser;
let channel: ChannelCredentials;
let ingestion: Ingestion;
const adapter = new TestAdapter();

const db = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.platform.db, systemContext(tenant), fn);
const messageRow = (id: number) => db(async (tx) => (await tx.select().from(messages).where(eq(messages.id, id)))[0]!);
const byProviderId = (id: string) =>
  db(async (tx) => (await tx.select().from(messages).where(eq(messages.messageId, id)))[0]!);

let chatSeq = 8000;
async function conversation(firstBody = 'olá') {
  const chatId = String((chatSeq += 1));
  const event = textEvent(chatId, firstBody);
  await ingestion.ingest(channel, [event]);
  const inbound = await byProviderId(event.providerMessageId);
  return { ticketId: inbound.ticketId, contactId: inbound.contactId, chatId, inbound };
}

/** An agent message, sent through the job (so it has a provider id). */
async function sentMessage(ticketId: number, body = 'mensagem do agente'): Promise<MessageDto> {
  const res = await t.call(agent, 'POST', `/messages/${ticketId}`, { body });
  await t.jobs.runPending(sendJob(t));
  const row = await messageRow(res.json<MessageDto>().id);
  expect(row.messageId).not.toBeNull();
  return res.json<MessageDto>();
}

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  tenant = await t.createTenant();
  ({ agent } = await t.createStaff(tenant));
  const other = await t.createTenant();
  ({ agent: outsider } = await t.createStaff(other));
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
});
afterAll(async () => t.close());

describe('GET /messages/{ticketId}', () => {
  it('pages newest first, each page oldest to newest, with the waiting sends apart', async () => {
    const { ticketId, chatId } = await conversation('m0');
    for (let i = 1; i <= 35; i += 1) await ingestion.ingest(channel, [textEvent(chatId, `m${i}`)]);
    const waiting = (
      await t.call(agent, 'POST', `/messages/${ticketId}`, { body: 'ainda não enviada' })
    ).json<MessageDto>();

    const first = (
      await t.call(agent, 'GET', `/messages/${ticketId}?pageNumber=1&ticketId=${ticketId}`)
    ).json<MessageListResponse>();
    expect(first.messages).toHaveLength(MESSAGES_PAGE_SIZE);
    expect(first.messages.at(-1)!.body).toBe('m35');
    expect(first.messages[0]!.body).toBe(`m${36 - MESSAGES_PAGE_SIZE}`);
    expect(first.hasMore).toBe(true);
    expect(first.messagesOffLine.map((m) => m.id)).toEqual([waiting.id]);

    const second = (await t.call(agent, 'GET', `/messages/${ticketId}?pageNumber=2`)).json<MessageListResponse>();
    expect(second.messages.map((m) => m.body)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(second.hasMore).toBe(false);
    expect(second.messagesOffLine).toEqual([]);
  });

  it("shows the contact's history on the channel across tickets", async () => {
    const { ticketId, chatId } = await conversation('do ticket antigo');
    await db((tx) => tx.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticketId)));
    const event = textEvent(chatId, 'do ticket novo');
    await ingestion.ingest(channel, [event]);
    const fresh = await byProviderId(event.providerMessageId);
    expect(fresh.ticketId).not.toBe(ticketId);
    const list = (await t.call(agent, 'GET', `/messages/${fresh.ticketId}`)).json<MessageListResponse>();
    expect(list.messages.map((m) => [m.body, m.ticket.id])).toEqual([
      ['do ticket antigo', ticketId],
      ['do ticket novo', fresh.ticketId],
    ]);
    // Each message carries its own ticket's summary and, for an agent's message, the agent: read with the page.
    expect(list.messages[0]!.ticket).toMatchObject({ id: ticketId, status: 'closed' });
    const reply = await sentMessage(fresh.ticketId, 'resposta do agente');
    const again = (await t.call(agent, 'GET', `/messages/${fresh.ticketId}`)).json<MessageListResponse>();
    const shown = again.messages.find((m) => m.id === reply.id)!;
    expect(shown.user).toEqual({ id: agent.id, name: 'Zé Agente' });
    expect(shown.ticket).toMatchObject({ id: fresh.ticketId, answered: true, unreadMessages: 0 });
    expect(again.messages.find((m) => m.body === 'do ticket novo')!.user).toBeNull();
  });

  it('refuses bad input with the catalogue', async () => {
    expect((await t.call(agent, 'GET', '/messages/abc')).statusCode).toBe(400);
    expect((await t.call(agent, 'GET', '/messages/1?pageNumber=0')).statusCode).toBe(400);
  });
});

describe('delete, edit, react', () => {
  it('deletes an agent message at the provider, then marks it', async () => {
    const { ticketId, chatId } = await conversation();
    const sent = await sentMessage(ticketId);
    const res = await t.call(agent, 'DELETE', '/messages', { id: sent.id, messageId: 'whatever' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MessageDto>()).toMatchObject({ isDeleted: true });
    expect(adapter.deletes.at(-1)).toMatchObject({ to: chatId });
  });

  it('a provider refusal is ERR_DELETE_WAPP_MSG and nothing changes; customer messages cannot be deleted', async () => {
    const { ticketId, inbound } = await conversation();
    const sent = await sentMessage(ticketId);
    adapter.fail(new ProviderError('message too old', true));
    const res = await t.call(agent, 'DELETE', '/messages', { id: sent.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_DELETE_WAPP_MSG' });
    expect(await messageRow(sent.id)).toMatchObject({ isDeleted: false });
    const theirs = await t.call(agent, 'DELETE', '/messages', { id: inbound.id });
    expect(theirs.json()).toEqual({ error: 'ERR_DELETE_WAPP_MSG' });
  });

  it('edits sent text messages (PATCH and editMessage by provider id); others are not editable', async () => {
    const { ticketId, inbound } = await conversation();
    const sent = await sentMessage(ticketId, 'com erro');
    const patched = await t.call(agent, 'PATCH', `/messages/${sent.id}`, { body: 'sem erro' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<MessageDto>()).toMatchObject({ edition: 'sem erro' });
    const providerId = (await messageRow(sent.id)).messageId!;
    const edited = await t.call(agent, 'POST', '/messages/editMessage', {
      messageId: providerId,
      ticketId,
      body: 'sem erro',
      newBody: 'versão final',
    });
    expect(edited.json<MessageDto>()).toMatchObject({ id: sent.id, edition: 'versão final' });
    expect(adapter.edits.at(-1)).toMatchObject({ id: providerId, body: 'versão final' });

    const theirs = await t.call(agent, 'PATCH', `/messages/${inbound.id}`, { body: 'x' });
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json()).toEqual({ error: 'ERR_MESSAGE_NOT_EDITABLE' });
    adapter.fail(new ProviderError('too old', true));
    const refused = await t.call(agent, 'PATCH', `/messages/${sent.id}`, { body: 'nunca' });
    expect(refused.json()).toEqual({ error: 'ERR_MESSAGE_NOT_EDITABLE' });
    expect((await messageRow(sent.id)).edition).toBe('versão final');
  });

  it('reacts to a message; a provider refusal changes nothing', async () => {
    const { ticketId, inbound } = await conversation();
    const res = await t.call(agent, 'POST', '/messages/reactionMessage', {
      messageId: inbound.id,
      ticketId,
      reaction: '❤️',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MessageDto>()).toMatchObject({ reactionFromMe: '❤️' });
    expect(adapter.reactions.at(-1)).toMatchObject({ id: inbound.messageId, emoji: '❤️' });
    adapter.fail(new ProviderError('nope', false));
    const refused = await t.call(agent, 'POST', '/messages/reactionMessage', {
      messageId: inbound.id,
      ticketId,
      reaction: '😂',
    });
    expect(refused.statusCode).toBe(502);
    expect((await messageRow(inbound.id)).reactionFromMe).toBe('❤️');
  });
});

describe('POST /forward-messages', () => {
  it('copies messages (media by key) to the contact as pending sends on a new open ticket of the caller', async () => {
    const source = await conversation('primeira');
    adapter.files.set('fwd-file', { data: Buffer.from('JPEG'), mime: 'image/jpeg', name: 'f.jpg' });
    const photo = textEvent(source.chatId, '', {
      mediaType: 'image',
      media: { ref: 'fwd-file', mime: 'image/jpeg', name: 'f.jpg', size: 4 },
    });
    await ingestion.ingest(channel, [photo]);
    await t.jobs.runPending(mediaJob(t));
    const photoRow = await byProviderId(photo.providerMessageId);
    const target = await db(
      async (tx) =>
        (await tx.insert(contacts).values({ tenantId: tenant, name: 'Destino', telegramId: '8999' }).returning())[0]!,
    );

    const res = await t.call(agent, 'POST', '/forward-messages/', {
      messages: [{ id: source.inbound.id, body: 'primeira' }, photoRow.id],
      contact: { id: target.id, name: 'Destino' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const copies = res.json<{ messages: MessageDto[] }>().messages;
    expect(copies.map((m) => [m.body, m.mediaType, m.status, m.fromMe])).toEqual([
      ['primeira', 'chat', 'pending', true],
      ['', 'image', 'pending', true],
    ]);
    expect((await messageRow(copies[1]!.id)).mediaKey).toBe(photoRow.mediaKey);
    const ticket = await db(
      async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, copies[0]!.ticketId)))[0]!,
    );
    expect(ticket).toMatchObject({ status: 'open', userId: agent.id, contactId: target.id, channelId: channel.id });
    adapter.sent.length = 0;
    await t.jobs.runPending(sendJob(t));
    // Order across one fetched batch is best-effort (see ARCHITECTURE "Message pipeline"): compare as a set.
    const sentCopies = adapter.sent.map((m) => [m.to, m.body, m.media?.data.toString() ?? '']).sort();
    expect(sentCopies).toEqual([
      ['8999', '', 'JPEG'],
      ['8999', 'primeira', ''],
    ]);

    // A second forward goes to the same (now open) ticket.
    const again = await t.call(agent, 'POST', '/forward-messages', {
      messages: [source.inbound.id],
      contact: target.id,
    });
    expect(again.json<{ messages: MessageDto[] }>().messages[0]!.ticketId).toBe(ticket.id);
  });

  it('sends the copies in the chat order (oldest first), whatever order they were picked in', async () => {
    const source = await conversation('pergunta');
    const later = textEvent(source.chatId, 'resposta');
    await ingestion.ingest(channel, [later]);
    const laterRow = await byProviderId(later.providerMessageId);
    const target = await db(
      async (tx) =>
        (await tx.insert(contacts).values({ tenantId: tenant, name: 'Ordem', telegramId: '8998' }).returning())[0]!,
    );
    const res = await t.call(agent, 'POST', '/forward-messages/', {
      messages: [laterRow.id, source.inbound.id],
      contact: target.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copies = res.json<{ messages: MessageDto[] }>().messages;
    expect(copies.map((m) => m.body)).toEqual(['pergunta', 'resposta']);
    expect(copies[0]!.id).toBeLessThan(copies[1]!.id);
    adapter.sent.length = 0;
    await t.jobs.runPending(sendJob(t));
    expect(adapter.sent.filter((m) => m.to === '8998').map((m) => m.body)).toEqual(['pergunta', 'resposta']);
  });

  it('refuses more than 10 messages, unknown contacts and invisible messages', async () => {
    const { inbound, contactId } = await conversation();
    const eleven = await t.call(agent, 'POST', '/forward-messages', {
      messages: Array(11).fill(inbound.id),
      contact: contactId,
    });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'messages' });
    const twoContacts = await t.call(agent, 'POST', '/forward-messages', { messages: [inbound.id], contact: [1, 2] });
    expect(twoContacts.statusCode).toBe(400);
    const noContact = await t.call(agent, 'POST', '/forward-messages', { messages: [inbound.id], contact: 99_999_999 });
    expect(noContact.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
  });
});

describe('GET /searchMessage', () => {
  it('folds accents both ways and keeps tenants apart', async () => {
    const a = await conversation('Preciso de uma ação rápida');
    const b = await conversation('a acao foi lenta');
    const search = async (user: TestUser, term: string) =>
      (await t.call(user, 'GET', `/searchMessage?searchTerm=${encodeURIComponent(term)}&pageNumber=1`)).json<{
        tickets: { id: number; message: { id: number } }[];
        hasMore: boolean;
      }>();
    for (const term of ['ação', 'acao', 'AÇÃO']) {
      const found = await search(agent, term);
      expect(found.tickets.map((x) => x.message.id).sort()).toEqual([a.inbound.id, b.inbound.id].sort());
    }
    expect((await search(agent, 'rápida')).tickets.map((x) => x.id)).toEqual([a.ticketId]);
    expect((await search(outsider, 'acao')).tickets).toEqual([]);
    expect((await t.call(agent, 'GET', '/searchMessage?searchTerm=')).statusCode).toBe(400);
  });
});

describe('tenant isolation', () => {
  it("another tenant's user gets 404 on every messages route and nothing changes", async () => {
    const { ticketId, inbound, contactId } = await conversation('segredo do tenant 1');
    const sent = await sentMessage(ticketId);
    const before = await db((tx) => tx.select().from(messages).where(eq(messages.ticketId, ticketId)));
    const calls: [Parameters<TestApp['call']>[1], string, object?][] = [
      ['GET', `/messages/${ticketId}`],
      ['POST', `/messages/${ticketId}`, { body: 'intruso' }],
      ['DELETE', '/messages', { id: sent.id }],
      ['PATCH', `/messages/${sent.id}`, { body: 'intruso' }],
      ['POST', '/messages/editMessage', { messageId: sent.id, ticketId, newBody: 'intruso' }],
      ['POST', '/messages/reactionMessage', { messageId: inbound.id, ticketId, reaction: '👎' }],
      ['POST', '/forward-messages', { messages: [inbound.id], contact: contactId }],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.call(outsider, method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    const after = await db((tx) => tx.select().from(messages).where(eq(messages.ticketId, ticketId)));
    expect(after).toEqual(before);
  });
});
