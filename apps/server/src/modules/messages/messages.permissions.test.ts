/**
 * Who may write what: a forward never lands in a ticket the caller may not see, and a message we sent is edited or
 * deleted only by its author or an admin (the provider is not called otherwise, and the row stays as it was).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import type { ChannelCredentials } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import type { Ingestion } from '../inbox/index.js';
import { messages } from './messages.tables.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  sendJob,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';
import { makeQueue, makeTicket } from '../../test/ticket-fixtures.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let colleague: TestUser;
let supervisor: TestUser;
let channel: ChannelCredentials;
let ingestion: Ingestion;
const adapter = new TestAdapter();

const db = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.platform.db, systemContext(tenant), fn);
const messageRow = (id: number) => db(async (tx) => (await tx.select().from(messages).where(eq(messages.id, id)))[0]!);
const byProviderId = (id: string) =>
  db(async (tx) => (await tx.select().from(messages).where(eq(messages.messageId, id)))[0]!);

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  tenant = await t.createTenant();
  ({ admin, agent, supervisor } = await t.createStaff(tenant));
  colleague = await t.createUser({ tenantId: tenant, profile: 'user', name: 'Outro Agente' });
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
});
afterAll(async () => t.close());

let chatSeq = 9100;
/** A customer's message on a new queue-less ticket (every agent sees it). */
async function conversation(body = 'olá') {
  const chatId = String((chatSeq += 1));
  const event = textEvent(chatId, body);
  await ingestion.ingest(channel, [event]);
  const inbound = await byProviderId(event.providerMessageId);
  return { ticketId: inbound.ticketId, contactId: inbound.contactId, chatId, inbound };
}

/** A message `user` sent through the job, so it has a provider id. */
async function sentBy(user: TestUser, ticketId: number, body: string): Promise<MessageDto> {
  const res = await t.call(user, 'POST', `/messages/${ticketId}`, { body });
  expect(res.statusCode, res.body).toBe(200);
  await t.jobs.runPending(sendJob(t));
  expect((await messageRow(res.json<MessageDto>().id)).messageId).not.toBeNull();
  return res.json<MessageDto>();
}

const providerCalls = () => adapter.edits.length + adapter.deletes.length + adapter.sent.length;

async function jobCount(): Promise<number> {
  return Number((await t.database.executeSql('select count(*)::int as n from pgboss.job')).rows[0]!.n);
}

describe('POST /forward-messages to a contact whose active ticket the caller may not see', () => {
  it('is refused with ERR_NO_PERMISSION: no message stored, no send queued, no ticket changed', async () => {
    const source = await conversation('encaminhe isto');
    const hiddenQueue = await makeQueue(t, tenant, 'Cobrança');
    const target = await db(
      async (tx) =>
        (await tx.insert(contacts).values({ tenantId: tenant, name: 'Alheio', telegramId: '9199' }).returning())[0]!,
    );
    const hidden = await makeTicket(t, tenant, {
      contactId: target.id,
      channelId: channel.id,
      status: 'open',
      queueId: hiddenQueue,
    });
    expect((await t.call(agent, 'GET', `/tickets/${hidden}`)).statusCode).toBe(404);
    const before = {
      messages: await db((tx) => tx.select().from(messages)),
      tickets: (await t.database.executeSql('select * from tickets order by id')).rows,
      jobs: await jobCount(),
    };
    const calls = providerCalls();

    const res = await t.call(agent, 'POST', '/forward-messages', { messages: [source.inbound.id], contact: target.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    await t.jobs.runPending(sendJob(t));
    expect(await db((tx) => tx.select().from(messages))).toEqual(before.messages);
    expect((await t.database.executeSql('select * from tickets order by id')).rows).toEqual(before.tickets);
    expect(await jobCount()).toBe(before.jobs);
    expect(providerCalls()).toBe(calls);

    // The supervisor sees that queue: the same forward goes into the contact's ticket.
    const allowed = await t.call(supervisor, 'POST', '/forward-messages', {
      messages: [source.inbound.id],
      contact: target.id,
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json<{ messages: MessageDto[] }>().messages[0]!.ticketId).toBe(hidden);
  });
});

describe('editing and deleting a message we sent', () => {
  it("another agent's edit (PATCH and editMessage) and delete are refused: no provider call, the row unchanged", async () => {
    const { ticketId } = await conversation();
    const sent = await sentBy(agent, ticketId, 'palavras do agente');
    const row = await messageRow(sent.id);
    const calls = providerCalls();
    const attempts: [Parameters<TestApp['call']>[1], string, object][] = [
      ['PATCH', `/messages/${sent.id}`, { body: 'palavras de outro' }],
      ['POST', '/messages/editMessage', { messageId: row.messageId!, ticketId, newBody: 'palavras de outro' }],
      ['POST', '/messages/editMessage', { messageId: sent.id, ticketId, newBody: 'palavras de outro' }],
      ['DELETE', '/messages', { id: sent.id }],
    ];
    for (const user of [colleague, supervisor]) {
      for (const [method, url, body] of attempts) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user.profile} ${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    }
    expect(providerCalls()).toBe(calls);
    expect(await messageRow(sent.id)).toEqual(row);
  });

  it('the author edits and deletes their own message', async () => {
    const { ticketId } = await conversation();
    const sent = await sentBy(agent, ticketId, 'com erro');
    const patched = await t.call(agent, 'PATCH', `/messages/${sent.id}`, { body: 'sem erro' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<MessageDto>().edition).toBe('sem erro');
    expect(adapter.edits.at(-1)).toMatchObject({ body: 'sem erro' });
    expect((await t.call(agent, 'DELETE', '/messages', { id: sent.id })).statusCode).toBe(200);
    expect((await messageRow(sent.id)).isDeleted).toBe(true);
  });

  it("an admin edits and deletes an agent's message", async () => {
    const { ticketId } = await conversation();
    const sent = await sentBy(agent, ticketId, 'texto do agente');
    const patched = await t.call(admin, 'PATCH', `/messages/${sent.id}`, { body: 'corrigido pelo admin' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await messageRow(sent.id)).edition).toBe('corrigido pelo admin');
    expect((await t.call(admin, 'DELETE', '/messages', { id: sent.id })).statusCode).toBe(200);
    expect((await messageRow(sent.id)).isDeleted).toBe(true);
  });

  it('a message written on the phone (no author) is changed only by an admin', async () => {
    const { chatId } = await conversation();
    const phone = textEvent(chatId, 'escrito no celular', { fromMe: true });
    await ingestion.ingest(channel, [phone]);
    const row = await byProviderId(phone.providerMessageId);
    expect(row).toMatchObject({ fromMe: true, userId: null });
    const calls = providerCalls();
    const refused = await t.call(agent, 'PATCH', `/messages/${row.id}`, { body: 'mudado' });
    expect(refused.statusCode).toBe(403);
    expect((await t.call(agent, 'DELETE', '/messages', { id: row.id })).statusCode).toBe(403);
    expect(providerCalls()).toBe(calls);
    expect(await messageRow(row.id)).toEqual(row);
    const allowed = await t.call(admin, 'PATCH', `/messages/${row.id}`, { body: 'mudado pelo admin' });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});
