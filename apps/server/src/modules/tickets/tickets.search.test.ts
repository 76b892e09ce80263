/**
 * Searching message text (issue 23 item 3): `GET /tickets?searchParam` and `GET /searchMessage` find words of
 * messages (accents and case ignored, a word's prefix, its Portuguese stem, every word of the term), under the one
 * visibility policy and never across tenants, whichever way the statement reaches them (few keys: probe; many: scan).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKETS_PAGE_SIZE, type TicketListResponse } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket, recordingPort } from '../../test/ticket-fixtures.js';
import { messages } from '../messages/messages.tables.js';
import { TEXT_COUNT_CAP } from './tickets.search.js';
import { tickets } from './tickets.tables.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let outsider: TestUser;
let outsiderAdmin: TestUser;
let channel: number;
/** Tickets: `seen` in the agent's queue, `hidden` in a queue the agent is not in, `foreign` in another tenant. */
let seen: number;
let hidden: number;
let foreign: number;
let seenMessage: number;

async function addMessage(tenantId: number, ticketId: number, body: string): Promise<number> {
  return withTenant(t.platform.db, systemContext(tenantId), async (tx) => {
    const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, ticketId));
    const [row] = await tx
      .insert(messages)
      .values({ tenantId, ticketId, contactId: ticket!.contactId, fromMe: false, body })
      .returning({ id: messages.id });
    return row!.id;
  });
}

/** `count` messages in one statement (a batch, as ingestion writes them). */
async function addMessages(tenantId: number, ticketId: number, body: string, count: number): Promise<void> {
  await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
    tx.execute(sql`insert into messages (tenant_id, ticket_id, contact_id, from_me, body)
      select ${tenantId}, ${ticketId}, contact_id, false, ${body} || ' ' || n
      from tickets cross join generate_series(1, ${count}) n where id = ${ticketId}`),
  );
}

async function updateMessage(tenantId: number, id: number, patch: Partial<typeof messages.$inferInsert>) {
  await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
    tx.update(messages).set(patch).where(eq(messages.id, id)),
  );
}

const list = async (user: TestUser, term: string, extra = '') => {
  const res = await t.call(user, 'GET', `/tickets?searchParam=${encodeURIComponent(term)}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketListResponse>();
};
const ids = async (user: TestUser, term: string, extra = '') =>
  (await list(user, term, extra)).tickets.map((ticket) => ticket.id).sort((a, b) => a - b);

interface SearchAnswer {
  tickets: { id: number; name: string; message: { id: number; body: string } }[];
  hasMore: boolean;
}
const searchMessage = async (user: TestUser, term: string, page = 1) => {
  const res = await t.call(user, 'GET', `/searchMessage?searchTerm=${encodeURIComponent(term)}&pageNumber=${page}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SearchAnswer>();
};
const messageTickets = async (user: TestUser, term: string) =>
  [...new Set((await searchMessage(user, term)).tickets.map((hit) => hit.id))].sort((a, b) => a - b);

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  tenant = await t.createTenant();
  ({ admin, agent } = await t.createStaff(tenant));
  channel = await makeChannel(t, tenant, { isDefault: true });
  const mine = await makeQueue(t, tenant, 'Suporte', [agent.id]);
  const theirs = await makeQueue(t, tenant, 'Financeiro');
  seen = await makeTicket(t, tenant, {
    contactId: await makeContact(t, tenant, { name: 'Carla Dias' }),
    channelId: channel,
    queueId: mine,
  });
  hidden = await makeTicket(t, tenant, {
    contactId: await makeContact(t, tenant, { name: 'Bruno Reis' }),
    channelId: channel,
    queueId: theirs,
  });
  seenMessage = await addMessage(tenant, seen, 'Meu pedido chegou com DEFEITO, preciso de uma ação rápida');
  await addMessage(tenant, hidden, 'O pedido está atrasado, quero uma ação');

  const other = await t.createTenant();
  ({ agent: outsider, admin: outsiderAdmin } = await t.createStaff(other));
  const otherChannel = await makeChannel(t, other, { isDefault: true });
  foreign = await makeTicket(t, other, {
    contactId: await makeContact(t, other, { name: 'Outra Empresa' }),
    channelId: otherChannel,
  });
  await addMessage(other, foreign, 'pedido com defeito de outra empresa');
  // These tests search the two tenants' pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
});
afterAll(() => t.close());

describe('GET /tickets?searchParam on message text', () => {
  it('matches accents and case either way, a prefix and a Portuguese stem', async () => {
    for (const term of ['ação', 'acao', 'AÇÃO', 'Defeito', 'defei', 'rapida', 'pedidos', 'chegaram']) {
      expect(await ids(admin, term, '&showAll=true'), term).toEqual(
        ['defei', 'defeito', 'rapida', 'chegaram'].includes(term.toLowerCase()) ? [seen] : [seen, hidden],
      );
    }
    expect(await ids(admin, 'inexistente', '&showAll=true')).toEqual([]);
  });

  it('needs every word of the term in one message', async () => {
    expect(await ids(admin, 'pedido defeito', '&showAll=true')).toEqual([seen]);
    expect(await ids(admin, 'pedido atrasado', '&showAll=true')).toEqual([hidden]);
    expect(await ids(admin, 'defeito atrasado', '&showAll=true')).toEqual([]);
  });

  it('shows the matching message on tickets found by text', async () => {
    const [row] = (await list(agent, 'defeito')).tickets;
    expect(row).toMatchObject({ id: seen, searchMatch: { id: seenMessage } });
    expect(row!.searchMatch!.body).toContain('DEFEITO');
    expect(Number.isNaN(Date.parse(row!.searchMatch!.createdAt))).toBe(false);
  });

  it('follows the visibility policy and never crosses tenants', async () => {
    expect(await ids(agent, 'pedido')).toEqual([seen]);
    expect(await ids(admin, 'pedido', '&showAll=true')).toEqual([seen, hidden]);
    expect(await ids(outsider, 'pedido')).toEqual([foreign]);
    expect(await ids(outsiderAdmin, 'pedido', '&showAll=true')).toEqual([foreign]);
    expect(await ids(outsiderAdmin, 'atrasado', '&showAll=true')).toEqual([]);
  });

  it('lists a ticket found by name and by text once, and counts it once', async () => {
    const named = await makeTicket(t, tenant, {
      contactId: await makeContact(t, tenant, { name: 'Garantia Estendida Ltda' }),
      channelId: channel,
    });
    await addMessage(tenant, named, 'sobre a garantia do produto');
    const byName = await list(admin, 'garantia', '&showAll=true');
    expect(byName.tickets.map((row) => row.id)).toEqual([named]);
    expect(byName.count).toBe(1);
  });

  it('keeps deleted messages out and follows edits', async () => {
    const ticket = await makeTicket(t, tenant, {
      contactId: await makeContact(t, tenant, { name: 'Edna' }),
      channelId: channel,
    });
    const id = await addMessage(tenant, ticket, 'quero o reembolso');
    expect(await ids(admin, 'reembolso', '&showAll=true')).toEqual([ticket]);
    await updateMessage(tenant, id, { edition: 'quero a troca' });
    expect(await ids(admin, 'reembolso', '&showAll=true')).toEqual([]);
    expect(await ids(admin, 'troca', '&showAll=true')).toEqual([ticket]);
    await updateMessage(tenant, id, { isDeleted: true });
    expect(await ids(admin, 'troca', '&showAll=true')).toEqual([]);
  });

  it('pages the tickets found by text', async () => {
    const made: number[] = [];
    for (let i = 0; i < TICKETS_PAGE_SIZE + 2; i += 1) {
      const ticket = await makeTicket(t, tenant, {
        contactId: await makeContact(t, tenant, { name: `Cliente ${i}` }),
        channelId: channel,
      });
      await addMessage(tenant, ticket, `segunda via do carne ${i}`);
      made.push(ticket);
    }
    const first = await list(admin, 'carne', '&showAll=true');
    expect(first.tickets).toHaveLength(TICKETS_PAGE_SIZE);
    expect(first).toMatchObject({ hasMore: true, count: TICKETS_PAGE_SIZE + 2 });
    const second = await list(admin, 'carne', '&showAll=true&pageNumber=2');
    expect(second.tickets).toHaveLength(2);
    expect(second.hasMore).toBe(false);
    expect([...first.tickets, ...second.tickets].map((row) => row.id).sort((a, b) => a - b)).toEqual(made);
  });

  it(`counts tickets found by text up to ${TEXT_COUNT_CAP}`, async () => {
    // TEXT_COUNT_CAP + 5 tickets, each with its own contact and one message holding the word, in three statements.
    const n = TEXT_COUNT_CAP + 5;
    await withTenant(t.platform.db, systemContext(tenant), async (tx) => {
      await tx.execute(sql`insert into contacts (tenant_id, name, number)
        select ${tenant}, 'Contagem ' || i, '5511977' || lpad(i::text, 6, '0') from generate_series(1, ${n}) i`);
      await tx.execute(sql`insert into tickets (tenant_id, contact_id, channel_id, channel, protocol, status)
        select ${tenant}, id, ${channel}, 'telegram', 'CONT-' || id, 'pending' from contacts
        where tenant_id = ${tenant} and name like 'Contagem %'`);
      await tx.execute(sql`insert into messages (tenant_id, ticket_id, contact_id, from_me, body)
        select ${tenant}, id, contact_id, false, 'sobre a nota fiscal' from tickets where protocol like 'CONT-%'`);
    });
    const page = await list(admin, 'fiscal', '&showAll=true');
    expect(page).toMatchObject({ count: TEXT_COUNT_CAP, countCapped: true, hasMore: true });
    expect(page.tickets.every((row) => row.searchMatch?.body === 'sobre a nota fiscal')).toBe(true);
  });

  it('applies the policy too when a word has many keys (the scan branch)', async () => {
    // More keys than the probe reads: the hidden ticket holds 1,200 messages with the word, the seen one one.
    await addMessages(tenant, hidden, 'boleto vencido', 1_200);
    await addMessage(tenant, seen, 'mandei o boleto');
    expect(await ids(agent, 'boleto')).toEqual([seen]);
    expect(await ids(admin, 'boleto', '&showAll=true')).toEqual([seen, hidden]);
    expect(await ids(outsider, 'boleto')).toEqual([]);
    expect((await list(agent, 'boleto')).count).toBe(1);
  });
});

describe('GET /searchMessage', () => {
  it('finds message words under the policy and within the tenant', async () => {
    expect(await messageTickets(agent, 'pedidos')).toEqual([seen]);
    expect(await messageTickets(admin, 'pedidos')).toEqual([seen, hidden]);
    expect(await messageTickets(outsider, 'pedidos')).toEqual([foreign]);
    expect(await messageTickets(outsider, 'atrasado')).toEqual([]);
    const hit = (await searchMessage(agent, 'ACAO rápida')).tickets;
    expect(hit).toEqual([
      expect.objectContaining({ id: seen, name: 'Carla Dias', message: expect.objectContaining({ id: seenMessage }) }),
    ]);
  });

  it('pages by 20 with hasMore', async () => {
    const ticket = await makeTicket(t, tenant, {
      contactId: await makeContact(t, tenant, { name: 'Paula' }),
      channelId: channel,
    });
    await addMessages(tenant, ticket, 'rastreio', 25);
    const first = await searchMessage(admin, 'rastreio');
    expect(first.tickets).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const second = await searchMessage(admin, 'rastreio', 2);
    expect(second.tickets).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    const bodies = [...first.tickets, ...second.tickets].map((hit) => hit.message.id);
    expect(new Set(bodies).size).toBe(25);
  });

  it('merges the words a prefix starts and its stem newest first, each message once', async () => {
    const ticket = await makeTicket(t, tenant, {
      contactId: await makeContact(t, tenant, { name: 'Otávio' }),
      channelId: channel,
    });
    // Oldest to newest: three words that start 'embrulh', one holding two of them, and one of none.
    const oldest = await addMessage(tenant, ticket, 'vou embrulhar agora');
    const both = await addMessage(tenant, ticket, 'embrulho embrulhado');
    await addMessage(tenant, ticket, 'nada a ver');
    const newest = await addMessage(tenant, ticket, 'os embrulhos chegaram');
    const hits = (await searchMessage(admin, 'embrulh')).tickets.map((hit) => hit.message.id);
    expect(hits).toEqual([newest, both, oldest]);
    // A whole word reaches the other forms through its stem ('embrulh', also the stem of 'embrulhar' and 'embrulho').
    expect((await searchMessage(admin, 'embrulhos')).tickets.map((hit) => hit.message.id)).toEqual([
      newest,
      both,
      oldest,
    ]);
    expect((await searchMessage(admin, 'embrulhado')).tickets.map((hit) => hit.message.id)).toEqual([
      newest,
      both,
      oldest,
    ]);
    // Words of other stems that the prefix starts ('parafusad', 'parafus'): found by walking the prefix's keys.
    const drill = await addMessage(tenant, ticket, 'uma parafusadeira nova');
    const screw = await addMessage(tenant, ticket, 'falta o parafuso');
    expect((await searchMessage(admin, 'parafus')).tickets.map((hit) => hit.message.id)).toEqual([screw, drill]);
  });

  it('refuses an empty term and answers nothing for one-letter words', async () => {
    expect((await t.call(agent, 'GET', '/searchMessage?searchTerm=')).statusCode).toBe(400);
    expect(await searchMessage(admin, 'a')).toEqual({ tickets: [], hasMore: false });
  });
});
