/**
 * The one visibility policy (product-spec §6), tested once against a table of cases: for every case and viewer the
 * list (`GET /tickets?showAll=true`), `GET /tickets/{id}` and the realtime audience query must all agree with the
 * expected answer. Then the list-only choices (showAll off, includeNotQueueDefined, isNotAssignedUser).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TicketListResponse } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { ticketAudience, ticketAudiences } from './tickets.access.js';
import {
  allowChannels,
  makeChannel,
  makeContact,
  makeQueue,
  makeTicket,
  recordingPort,
  setTenantFlags,
  setVisibility,
} from '../../test/ticket-fixtures.js';

let t: TestApp;
let viewers: Record<'admin' | 'super' | 'agent' | 'other' | 'outsider', TestUser>;
let channel: number;
let channelB: number;
let q1: number;
let q2: number;

const OFF = {
  NotViewAssignedTickets: 'disabled',
  NotViewTicketsChatBot: 'disabled',
  DirectTicketsToWallets: 'disabled',
} as const;

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  const staff = await t.createStaff();
  const other = await t.createUser({ tenantId: 1, profile: 'user', name: 'Outra Agente' });
  const outsider = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
  viewers = { admin: staff.admin, super: staff.supervisor, agent: staff.agent, other, outsider };
  channel = await makeChannel(t, 1);
  channelB = await makeChannel(t, 1);
  q1 = await makeQueue(t, 1, 'Vendas', [staff.agent.id, other.id]);
  q2 = await makeQueue(t, 1, 'Suporte', [other.id]);
});
beforeEach(async () => {
  await setVisibility(t, 1, OFF);
  await setTenantFlags(t, 1, {});
  for (const viewer of Object.values(viewers)) await allowChannels(t, viewer.tenantId, viewer.id, []);
});
afterAll(() => t.close());

type Who = keyof typeof viewers;
interface Case {
  name: string;
  settings?: Partial<Record<keyof typeof OFF, 'enabled'>>;
  /** Tenant flags (client-contract §10) for the case; the others keep their defaults. */
  flags?: Record<string, 'enabled' | 'disabled'>;
  ticket: (ids: { agent: number; other: number }) => {
    queueId?: number | null;
    userId?: number | null;
    chatFlowId?: number;
    isGroup?: boolean;
    status?: 'open' | 'pending' | 'closed';
  };
  /** The ticket's channel: the main one (default) or B. */
  onChannelB?: boolean;
  /** Users whose `whatsappAllowed` is channel B only. */
  allowedOnlyB?: Who[];
  wallets?: Who[];
  sees: Who[];
}

const cases: Case[] = [
  {
    name: 'unassigned ticket of a queue the agent serves',
    ticket: () => ({ queueId: q1 }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'ticket of a queue the agent does not serve',
    ticket: () => ({ queueId: q2 }),
    sees: ['admin', 'super', 'other'],
  },
  { name: 'ticket without queue', ticket: () => ({ queueId: null }), sees: ['admin', 'super', 'agent', 'other'] },
  {
    name: 'own ticket in a foreign queue always passes',
    ticket: ({ agent }) => ({ queueId: q2, userId: agent }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'NotViewAssignedTickets: assigned only to the assignee and admins (super via showAll)',
    settings: { NotViewAssignedTickets: 'enabled' },
    ticket: ({ other }) => ({ queueId: q1, userId: other }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'NotViewAssignedTickets leaves unassigned tickets alone',
    settings: { NotViewAssignedTickets: 'enabled' },
    ticket: () => ({ queueId: q1 }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'NotViewTicketsChatBot: a bot ticket without user and queue is hidden',
    settings: { NotViewTicketsChatBot: 'enabled' },
    ticket: () => ({ queueId: null, chatFlowId: 7 }),
    sees: ['admin', 'super'],
  },
  {
    name: 'NotViewTicketsChatBot: a bot ticket with a queue is not a hidden one',
    settings: { NotViewTicketsChatBot: 'enabled' },
    ticket: () => ({ queueId: q1, chatFlowId: 7 }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'DirectTicketsToWallets: only wallet owners and admins',
    settings: { DirectTicketsToWallets: 'enabled' },
    ticket: () => ({ queueId: q1 }),
    wallets: ['other'],
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'DirectTicketsToWallets: a contact without wallets is everyone’s',
    settings: { DirectTicketsToWallets: 'enabled' },
    ticket: () => ({ queueId: q1 }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'supervisorAdmin: the supervisor needs the queue like a user (no showAll)',
    flags: { supervisorAdmin: 'enabled' },
    ticket: () => ({ queueId: q1 }),
    sees: ['admin', 'agent', 'other'],
  },
  {
    name: 'supervisorAdmin: queue-less tickets still reach the supervisor while nullTickets is on',
    flags: { supervisorAdmin: 'enabled' },
    ticket: () => ({ queueId: null }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'nullTickets off: users do not see tickets without queue',
    flags: { nullTickets: 'disabled' },
    ticket: () => ({ queueId: null }),
    sees: ['admin', 'super'],
  },
  {
    name: 'nullTickets off with supervisorAdmin: only admins see tickets without queue',
    flags: { nullTickets: 'disabled', supervisorAdmin: 'enabled' },
    ticket: () => ({ queueId: null }),
    sees: ['admin'],
  },
  {
    name: 'nullTickets off: the viewer’s own queue-less ticket still passes',
    flags: { nullTickets: 'disabled' },
    ticket: ({ agent }) => ({ queueId: null, userId: agent, status: 'open' }),
    sees: ['admin', 'super', 'agent'],
  },
  {
    name: 'a group ticket of a foreign queue is hidden without showGroupsForAll',
    ticket: () => ({ queueId: q2, isGroup: true }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'showGroupsForAll: a group ticket of any queue reaches every user',
    flags: { showGroupsForAll: 'enabled' },
    ticket: () => ({ queueId: q2, isGroup: true }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'showGroupsForAll does not open private tickets of foreign queues',
    flags: { showGroupsForAll: 'enabled' },
    ticket: () => ({ queueId: q2 }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'showGroupsForAll keeps the other rules (NotViewAssignedTickets)',
    flags: { showGroupsForAll: 'enabled' },
    settings: { NotViewAssignedTickets: 'enabled' },
    ticket: ({ other }) => ({ queueId: q2, isGroup: true, userId: other, status: 'open' }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'a closed ticket of a foreign queue is hidden without showClosedForAll',
    ticket: () => ({ queueId: q2, status: 'closed' }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'showClosedForAll: a closed ticket of any queue reaches every user',
    flags: { showClosedForAll: 'enabled' },
    ticket: () => ({ queueId: q2, status: 'closed' }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'showClosedForAll does not open pending tickets of foreign queues',
    flags: { showClosedForAll: 'enabled' },
    ticket: () => ({ queueId: q2, status: 'pending' }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'whatsappAllowed: a user allowed only channel B does not see tickets of another channel',
    allowedOnlyB: ['agent', 'super'],
    ticket: () => ({ queueId: q1 }),
    sees: ['admin', 'super', 'other'],
  },
  {
    name: 'whatsappAllowed: ... and sees those of channel B',
    allowedOnlyB: ['agent'],
    onChannelB: true,
    ticket: () => ({ queueId: q1 }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'whatsappAllowed: the user’s own ticket on another channel still passes',
    allowedOnlyB: ['agent'],
    ticket: ({ agent }) => ({ queueId: q1, userId: agent, status: 'open' }),
    sees: ['admin', 'super', 'agent', 'other'],
  },
  {
    name: 'whatsappAllowed binds a supervisor acting as a user (supervisorAdmin)',
    flags: { supervisorAdmin: 'enabled' },
    allowedOnlyB: ['super'],
    ticket: () => ({ queueId: null }),
    sees: ['admin', 'agent', 'other'],
  },
];

async function listIds(user: TestUser, query: string): Promise<number[]> {
  const res = await t.call(user, 'GET', `/tickets?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketListResponse>().tickets.map((row) => row.id);
}

async function audience(ticketId: number, tenantId = 1): Promise<number[]> {
  const ids = Object.values(viewers).map((v) => v.id);
  return withTenant(t.platform.db, systemContext(tenantId), async (tx) => ticketAudience(tx, tenantId, ticketId, ids));
}

describe('ticket visibility policy', () => {
  it.each(cases)('$name', async (c) => {
    await setVisibility(t, 1, { ...OFF, ...c.settings });
    await setTenantFlags(t, 1, c.flags ?? {});
    for (const who of c.allowedOnlyB ?? []) await allowChannels(t, 1, viewers[who].id, [channelB]);
    const ticketChannel = c.onChannelB ? channelB : channel;
    const wallets = (c.wallets ?? []).map((who) => viewers[who].id);
    const contactId = await makeContact(t, 1, { name: c.name.slice(0, 30), wallets });
    const id = await makeTicket(t, 1, {
      contactId,
      channelId: ticketChannel,
      ...c.ticket({ agent: viewers.agent.id, other: viewers.other.id }),
    });
    const inAudience = await audience(id);
    for (const who of Object.keys(viewers) as Who[]) {
      const expected = c.sees.includes(who);
      const viewer = viewers[who];
      const query = `showAll=true&whatsappIds[]=${ticketChannel}&status[]=open&status[]=pending&status[]=closed`;
      const listed = (await listIds(viewer, query)).includes(id);
      const detail = (await t.call(viewer, 'GET', `/tickets/${id}`)).statusCode;
      expect({ who, listed }).toEqual({ who, listed: expected });
      expect({ who, detail }).toEqual({ who, detail: expected ? 200 : 404 });
      expect({ who, audience: inAudience.includes(viewer.id) }).toEqual({ who, audience: expected });
    }
  });

  it('reads the audiences of several tickets in one query, each as it would be read alone', async () => {
    await setVisibility(t, 1, { ...OFF, NotViewAssignedTickets: 'enabled' });
    const ticketOf = async (state: { queueId: number; userId?: number; status?: 'open' | 'pending' }) =>
      makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, ...state });
    const waiting = await ticketOf({ queueId: q1 });
    const agents = await ticketOf({ queueId: q1, userId: viewers.agent.id, status: 'open' });
    const others = await ticketOf({ queueId: q2, userId: viewers.other.id, status: 'open' });
    const ids = Object.values(viewers).map((v) => v.id);
    const together = await withTenant(t.platform.db, systemContext(1), (tx) =>
      ticketAudiences(tx, 1, [waiting, agents, others, 999_999_999], ids),
    );
    const alone = new Map([
      [waiting, await audience(waiting)],
      [agents, await audience(agents)],
      [others, await audience(others)],
    ]);
    expect(together).toEqual(alone);
    expect(together.get(agents)).toContain(viewers.agent.id);
    expect(together.get(others)).not.toContain(viewers.agent.id);
    expect(together.has(999_999_999)).toBe(false);
  });

  it('showAll is honoured only for admin and super; without it the settings bind super', async () => {
    await setVisibility(t, 1, { ...OFF, NotViewAssignedTickets: 'enabled' });
    const contactId = await makeContact(t, 1);
    const id = await makeTicket(t, 1, {
      contactId,
      channelId: channel,
      queueId: q2,
      userId: viewers.other.id,
      status: 'open',
    });
    expect(await listIds(viewers.super, 'showAll=false')).not.toContain(id);
    expect(await listIds(viewers.super, 'showAll=true')).toContain(id);
    expect(await listIds(viewers.admin, 'showAll=false')).toContain(id); // admins see assigned tickets anyway
    expect(await listIds(viewers.agent, 'showAll=true')).not.toContain(id); // an agent's showAll is ignored
  });

  it('includeNotQueueDefined=false hides queue-less tickets, except the viewer’s own', async () => {
    const none = await makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, queueId: null });
    const own = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      queueId: null,
      userId: viewers.agent.id,
      status: 'open',
    });
    const ids = await listIds(viewers.agent, 'includeNotQueueDefined=false');
    expect(ids).not.toContain(none);
    expect(ids).toContain(own);
    expect(await listIds(viewers.agent, 'includeNotQueueDefined=true')).toContain(none);
    expect(await listIds(viewers.admin, 'includeNotQueueDefined=false')).not.toContain(none);
  });

  it('isNotAssignedUser keeps unassigned tickets (and the viewer’s own)', async () => {
    const free = await makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, queueId: q1 });
    const taken = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      queueId: q1,
      userId: viewers.other.id,
      status: 'open',
    });
    const ids = await listIds(viewers.agent, 'isNotAssignedUser=true');
    expect(ids).toContain(free);
    expect(ids).not.toContain(taken);
    expect(await listIds(viewers.agent, 'isNotAssignedUser=false')).toContain(taken);
    expect(await listIds(viewers.agent, 'isNotAssignedUser[]=true&isNotAssignedUser[]=false')).toContain(taken);
  });
});
