/**
 * "Espiar pendentes" (`spyticket`, issue 23 item 4): with the setting off (its default) an agent sees a pending
 * ticket in the list but gets ERR_NO_PERMISSION for its messages until accepting it; the assignee, admins and
 * supervisors (unless `supervisorAdmin` makes them act as users) read them; with the setting on every viewer may.
 * Open tickets are not concerned, and tenants never read each other's tickets. The text searches (`GET /searchMessage`,
 * the list's `searchParam`) find no words of a conversation the caller may not read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket, setTenantFlags, setVisibility } from '../../test/ticket-fixtures.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let channelId: number;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  ({ admin, agent, supervisor } = await t.createStaff(tenant));
  channelId = await makeChannel(t, tenant, { name: 'Loja' });
});
afterAll(() => t.close());

/** A queue-less ticket (every agent sees it in the list) with one customer message. */
async function ticketWithMessage(status: 'pending' | 'open', userId: number | null = null) {
  const contactId = await makeContact(t, tenant, { name: `Cliente ${status}` });
  const id = await makeTicket(t, tenant, { contactId, channelId, status, userId });
  await t.database.executeSql(
    `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body)
       values ($1, $2, $3, $4, false, 'segredo do cliente')`,
    [tenant, id, contactId, channelId],
  );
  return id;
}

const messagesOf = (user: TestUser, ticketId: number) => t.call(user, 'GET', `/messages/${ticketId}`);

describe('spyticket', () => {
  it('off: an agent gets ERR_NO_PERMISSION for a pending ticket not accepted, and reads it once accepted', async () => {
    await setVisibility(t, tenant, { spyticket: 'disabled' });
    const pending = await ticketWithMessage('pending');
    // The ticket itself stays visible (list, GET /tickets/{id}): only its conversation is withheld.
    expect((await t.call(agent, 'GET', `/tickets/${pending}`)).statusCode).toBe(200);
    const refused = await messagesOf(agent, pending);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(refused.body).not.toContain('segredo');

    expect((await t.call(agent, 'PUT', `/tickets/${pending}`, { status: 'open', userId: agent.id })).statusCode).toBe(
      200,
    );
    const read = await messagesOf(agent, pending);
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('segredo do cliente');
  });

  it('off: the assignee of a pending ticket, admins and supervisors read it; supervisors acting as users do not', async () => {
    await setVisibility(t, tenant, { spyticket: 'disabled' });
    const pending = await ticketWithMessage('pending');
    const heldByAgent = await ticketWithMessage('pending', agent.id);
    expect((await messagesOf(admin, pending)).statusCode).toBe(200);
    expect((await messagesOf(supervisor, pending)).statusCode).toBe(200);
    expect((await messagesOf(agent, heldByAgent)).statusCode).toBe(200);
    await setTenantFlags(t, tenant, { supervisorAdmin: 'enabled' });
    try {
      expect((await messagesOf(supervisor, pending)).statusCode).toBe(403);
      expect((await messagesOf(admin, pending)).statusCode).toBe(200);
    } finally {
      await setTenantFlags(t, tenant, {});
    }
  });

  it('off: open tickets are read as before', async () => {
    await setVisibility(t, tenant, { spyticket: 'disabled' });
    const open = await ticketWithMessage('open', null);
    expect((await messagesOf(agent, open)).statusCode).toBe(200);
  });

  it('on: an agent reads a pending ticket without accepting it', async () => {
    await setVisibility(t, tenant, { spyticket: 'enabled' });
    const pending = await ticketWithMessage('pending');
    const read = await messagesOf(agent, pending);
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('segredo do cliente');
    await setVisibility(t, tenant, { spyticket: 'disabled' });
  });

  it("another tenant's setting does not open this tenant's pending tickets", async () => {
    const other = await t.createTenant();
    await setVisibility(t, other, { spyticket: 'enabled' });
    await setVisibility(t, tenant, { spyticket: 'disabled' });
    const pending = await ticketWithMessage('pending');
    expect((await messagesOf(agent, pending)).statusCode).toBe(403);
    const { agent: outsider } = await t.createStaff(other);
    expect((await messagesOf(outsider, pending)).statusCode).toBe(404);
  });

  describe('text search', () => {
    /** A pending ticket whose only message holds `word`, and what each search finds of it as `user`. */
    async function pendingWithWord(word: string) {
      const contactId = await makeContact(t, tenant, { name: 'Cliente busca' });
      const id = await makeTicket(t, tenant, { contactId, channelId, status: 'pending' });
      await t.database.executeSql(
        `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body)
           values ($1, $2, $3, $4, false, $5)`,
        [tenant, id, contactId, channelId, `meu ${word} chegou`],
      );
      return id;
    }
    const found = async (user: TestUser, word: string, ticketId: number) => {
      const messages = await t.call(user, 'GET', `/searchMessage?searchTerm=${word}&pageNumber=1`);
      expect(messages.statusCode).toBe(200);
      const list = await t.call(user, 'GET', `/tickets?status=pending&searchParam=${word}`);
      expect(list.statusCode).toBe(200);
      const inMessages = (messages.json() as { tickets: { id: number }[] }).tickets.some((row) => row.id === ticketId);
      const row = (list.json() as { tickets: { id: number; searchMatch?: { body: string } }[] }).tickets.find(
        (ticket) => ticket.id === ticketId,
      );
      return { inMessages, inList: row !== undefined, snippet: row?.searchMatch?.body ?? null };
    };

    it("off: an agent's searches find no words of a pending ticket not accepted; the admin's and, once accepted, the agent's do", async () => {
      await setVisibility(t, tenant, { spyticket: 'disabled' });
      const pending = await pendingWithWord('orcamentox');
      expect(await found(agent, 'orcamentox', pending)).toEqual({ inMessages: false, inList: false, snippet: null });
      expect(await found(admin, 'orcamentox', pending)).toEqual({
        inMessages: true,
        inList: true,
        snippet: 'meu orcamentox chegou',
      });
      await t.database.executeSql('update tickets set user_id = $1 where id = $2', [agent.id, pending]);
      expect(await found(agent, 'orcamentox', pending)).toEqual({
        inMessages: true,
        inList: true,
        snippet: 'meu orcamentox chegou',
      });
    });

    it("on: an agent's searches find a pending ticket's words", async () => {
      await setVisibility(t, tenant, { spyticket: 'enabled' });
      try {
        const pending = await pendingWithWord('pacotey');
        expect(await found(agent, 'pacotey', pending)).toEqual({
          inMessages: true,
          inList: true,
          snippet: 'meu pacotey chegou',
        });
      } finally {
        await setVisibility(t, tenant, { spyticket: 'disabled' });
      }
    });
  });
});
