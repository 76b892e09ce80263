/**
 * /api/ticketEvaluations routes and the resolve rules around them: availability (group, channel without ratings,
 * closed), the reason rule (reasonRequired), permissions, the list filters, update, delete and logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { EvaluationDto, ReasonDto, TicketDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket, recordingPort, setVisibility } from '../../test/ticket-fixtures.js';
import { channels } from '../channels/channels.tables.js';
import { tickets } from '../tickets/tickets.tables.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let colleague: TestUser;
let otherAdmin: TestUser;
let ratedChannel: number;
let plainChannel: number;
const recorder = recordingPort();

const asSystem = <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(t.platform.db, systemContext(admin.tenantId), fn);

async function openTicket(channelId: number, values: { isGroup?: boolean; userId?: number | null } = {}) {
  const contactId = await makeContact(t, admin.tenantId);
  return makeTicket(t, admin.tenantId, {
    contactId,
    channelId,
    status: 'open',
    userId: values.userId === undefined ? agent.id : values.userId,
    isGroup: values.isGroup ?? false,
  });
}

const awaiting = async (ticketId: number) =>
  (await asSystem((tx) => tx.select().from(tickets).where(eq(tickets.id, ticketId))))[0]!.awaitingRating;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'error' }, { ticketMessaging: recorder.port });
  ({ admin, agent, supervisor } = await t.createStaff());
  colleague = await t.createUser({ tenantId: admin.tenantId, profile: 'user', name: 'Colega' });
  ({ admin: otherAdmin } = await t.createStaff(await t.createTenant()));
  ratedChannel = await makeChannel(t, admin.tenantId);
  plainChannel = await makeChannel(t, admin.tenantId);
  await asSystem((tx) => tx.update(channels).set({ sendEvaluation: 'enabled' }).where(eq(channels.id, ratedChannel)));
});
afterAll(() => t.close());

describe('POST /ticketEvaluations/send (resolve with a rating)', () => {
  it('queues the closing message and the menu, stores a waiting row, flags the ticket and keeps it open', async () => {
    const ticketId = await openTicket(ratedChannel);
    recorder.calls.length = 0;
    const res = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId, farewellMessage: 'Até mais!' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<EvaluationDto>()).toMatchObject({
      ticketId,
      userId: agent.id,
      status: 'waiting',
      attempts: 0,
      value: null,
      ticket: { id: ticketId, status: 'open' },
    });
    expect(recorder.calls.map((c) => [c.sendType, c.body?.split('\n')[0]])).toEqual([
      ['farewell', 'Até mais!'],
      ['evaluation', 'Como você avalia nosso atendimento?'],
    ]);
    expect(recorder.calls[1]!.body).toContain('\n5 - Incrível');
    expect(await awaiting(ticketId)).toBe(true);
    expect((await t.call(agent, 'GET', `/tickets/${ticketId}`)).json<TicketDto>().status).toBe('open');
    // A second send while one waits is refused.
    const again = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'ERR_EVALUATION_NOT_AVAILABLE' });
  });

  it("sends the channel's farewell before the menu when asked (sendFarewell), the dialog's text instead of it", async () => {
    const channelId = await makeChannel(t, admin.tenantId);
    await asSystem((tx) =>
      tx
        .update(channels)
        .set({ sendEvaluation: 'enabled', farewellMessage: 'Obrigado pelo contato!' })
        .where(eq(channels.id, channelId)),
    );
    const sent = async (body: Record<string, unknown>) => {
      recorder.calls.length = 0;
      const res = await t.call(agent, 'POST', '/ticketEvaluations/send', {
        ticketId: await openTicket(channelId),
        ...body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return recorder.calls.map((c) => [c.sendType, c.body?.split('\n')[0]]);
    };
    const menu = ['evaluation', 'Como você avalia nosso atendimento?'];
    expect(await sent({ sendFarewell: true })).toEqual([['farewell', 'Obrigado pelo contato!'], menu]);
    expect(await sent({ sendFarewell: true, farewellMessage: 'Até logo!' })).toEqual([['farewell', 'Até logo!'], menu]);
    expect(await sent({})).toEqual([menu]);
    expect(await sent({ sendFarewell: false })).toEqual([menu]);
  });

  it('answers ERR_EVALUATION_NOT_AVAILABLE for a group, a channel without ratings and a closed ticket', async () => {
    const group = await openTicket(ratedChannel, { isGroup: true });
    const plain = await openTicket(plainChannel);
    const closed = await openTicket(ratedChannel);
    await asSystem((tx) => tx.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, closed)));
    for (const ticketId of [group, plain, closed]) {
      const res = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: 'ERR_EVALUATION_NOT_AVAILABLE' });
      expect(await awaiting(ticketId)).toBe(false);
    }
  });

  it("refuses another agent's ticket, an unknown ticket, and another tenant's ticket", async () => {
    const ticketId = await openTicket(ratedChannel, { userId: colleague.id });
    const refused = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId });
    expect([403, 404]).toContain(refused.statusCode);
    const unknown = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId: 999999 });
    expect(unknown.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    const foreign = await t.call(otherAdmin, 'POST', '/ticketEvaluations/send', { ticketId });
    expect(foreign.statusCode).toBe(404);
    expect(await awaiting(ticketId)).toBe(false);
  });
});

describe('a rating abandoned by another close', () => {
  it('force close clears the flag and lists the rating as failed; a reopened ticket may be rated again', async () => {
    const ticketId = await openTicket(ratedChannel);
    const first = (await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId })).json<EvaluationDto>();
    expect((await t.call(agent, 'PUT', `/ticketsForce/${ticketId}`, { status: 'closed' })).json().status).toBe(
      'closed',
    );
    expect(await awaiting(ticketId)).toBe(false);
    const listed = (await t.call(admin, 'GET', '/ticketEvaluations')).json<EvaluationDto[]>();
    expect(listed.find((e) => e.id === first.id)?.status).toBe('failed');
    expect((await t.call(agent, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: agent.id })).statusCode).toBe(
      200,
    );
    const again = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId });
    expect(again.statusCode, again.body).toBe(201);
    expect(await awaiting(ticketId)).toBe(true);
  });
});

describe('the reason rule (reasonRequired)', () => {
  let reason: ReasonDto;
  beforeAll(async () => {
    reason = (await t.call(admin, 'POST', '/reasons', { name: 'Dúvida' })).json<ReasonDto>();
    await setVisibility(t, admin.tenantId, { reasonRequired: 'enabled' });
  });

  it('PUT /tickets/{id} closed without a reason answers ERR_REASON_REQUIRED and changes nothing', async () => {
    const ticketId = await openTicket(plainChannel);
    const res = await t.call(agent, 'PUT', `/tickets/${ticketId}`, { status: 'closed', userId: agent.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_REASON_REQUIRED' });
    expect((await t.call(agent, 'GET', `/tickets/${ticketId}`)).json<TicketDto>().status).toBe('open');
    const withNull = await t.call(agent, 'PUT', `/tickets/${ticketId}`, { status: 'closed', reasons: null });
    expect(withNull.json()).toEqual({ error: 'ERR_REASON_REQUIRED' });
    const sendRes = await t.call(agent, 'POST', '/ticketEvaluations/send', {
      ticketId: await openTicket(ratedChannel),
    });
    expect(sendRes.json()).toEqual({ error: 'ERR_REASON_REQUIRED' });
  });

  it('closes with a reason (stored in the DTO), or with one the ticket already has', async () => {
    const ticketId = await openTicket(plainChannel);
    const res = await t.call(agent, 'PUT', `/tickets/${ticketId}`, { status: 'closed', reasons: reason.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TicketDto>()).toMatchObject({ status: 'closed', reasons: reason.id });
    const second = await openTicket(plainChannel);
    await t.call(agent, 'PUT', `/tickets/${second}`, { reasons: reason.id });
    expect((await t.call(agent, 'PUT', `/tickets/${second}`, { status: 'closed' })).json<TicketDto>().status).toBe(
      'closed',
    );
  });

  it("an unknown reason or another tenant's answers ERR_NO_REASON_FOUND", async () => {
    const foreign = (await t.call(otherAdmin, 'POST', '/reasons', { name: 'Deles' })).json<ReasonDto>();
    const ticketId = await openTicket(plainChannel);
    for (const id of [999999, foreign.id]) {
      const res = await t.call(agent, 'PUT', `/tickets/${ticketId}`, { status: 'closed', reasons: id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_REASON_FOUND' });
      const rated = await t.call(agent, 'POST', '/ticketEvaluations/send', {
        ticketId: await openTicket(ratedChannel),
        reasons: id,
      });
      expect(rated.json()).toEqual({ error: 'ERR_NO_REASON_FOUND' });
    }
  });

  it('force close and silent close are exempt', async () => {
    const forced = await openTicket(plainChannel);
    expect((await t.call(agent, 'PUT', `/ticketsForce/${forced}`, { status: 'closed' })).json().status).toBe('closed');
    const silent = await openTicket(plainChannel);
    expect((await t.call(agent, 'PUT', `/ticketsNull/${silent}`, { status: 'closed' })).json().status).toBe('closed');
  });

  it('with the setting off, resolving without a reason closes', async () => {
    await setVisibility(t, admin.tenantId, { reasonRequired: 'disabled' });
    const ticketId = await openTicket(plainChannel);
    expect((await t.call(agent, 'PUT', `/tickets/${ticketId}`, { status: 'closed' })).json().status).toBe('closed');
  });
});

describe('the ratings list, the reference client calls, update, delete and logs', () => {
  let rated: EvaluationDto;

  beforeAll(async () => {
    const ticketId = await openTicket(ratedChannel);
    rated = (
      await t.call(agent, 'POST', '/ticketEvaluations/', { evaluation: 'Avalie', attempts: 0, ticketId, tenantId: 1 })
    ).json<EvaluationDto>();
    await asSystem((tx) =>
      tx.execute(sql`update ticket_evaluations set status = 'rated', value = 5 where id = ${rated.id}`),
    );
  });

  it('POST (the reference client) stores a waiting row and flags the ticket', async () => {
    expect(rated).toMatchObject({ evaluation: 'Avalie', status: 'waiting', userId: agent.id });
    expect(await awaiting(rated.ticketId)).toBe(true);
    const missing = await t.call(agent, 'POST', '/ticketEvaluations', { evaluation: 'x', ticketId: 999999 });
    expect(missing.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it('lists for supervisors and admins, filtered by agent and period; agents are refused', async () => {
    const all = await t.call(supervisor, 'GET', '/ticketEvaluations/');
    expect(all.statusCode).toBe(200);
    const found = all.json<EvaluationDto[]>().find((e) => e.id === rated.id)!;
    expect(found).toMatchObject({ value: 5, status: 'rated', user: { id: agent.id }, ticket: { id: rated.ticketId } });
    expect(found.ticket.contact.name).toBe('Cliente');
    const byColleague = (await t.call(admin, 'GET', `/ticketEvaluations?userId=${colleague.id}`)).json();
    expect(byColleague).toEqual([]);
    const byAgent = (await t.call(admin, 'GET', `/ticketEvaluations?userId=${agent.id}`)).json<EvaluationDto[]>();
    expect(byAgent.every((e) => e.userId === agent.id)).toBe(true);
    expect(byAgent.length).toBeGreaterThan(0);
    const past = (await t.call(admin, 'GET', '/ticketEvaluations?dateStart=2020-01-01&dateEnd=2020-01-31')).json();
    expect(past).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const now = (await t.call(admin, 'GET', `/ticketEvaluations?dateStart=${today}&dateEnd=${today}`)).json();
    expect(now.length).toBeGreaterThan(0);
    expect((await t.call(agent, 'GET', '/ticketEvaluations')).statusCode).toBe(403);
    expect((await t.call(otherAdmin, 'GET', '/ticketEvaluations')).json()).toEqual([]);
  });

  it('logs answer the rated values of a ticket (every profile that sees it)', async () => {
    const logs = await t.call(agent, 'GET', `/ticketEvaluations/${rated.ticketId}/logs`);
    expect(logs.json()).toEqual([
      { id: rated.id, evaluation: 5, createdAt: expect.any(String), user: expect.any(Object) },
    ]);
    expect((await t.call(otherAdmin, 'GET', `/ticketEvaluations/${rated.ticketId}/logs`)).statusCode).toBe(404);
  });

  it('PUT and DELETE for supervisors and admins; ERR_NO_EVALUATION_FOUND otherwise', async () => {
    const put = await t.call(supervisor, 'PUT', `/ticketEvaluations/${rated.id}`, { value: 4, attempts: 1 });
    expect(put.json()).toMatchObject({ value: 4, attempts: 1 });
    expect((await t.call(agent, 'PUT', `/ticketEvaluations/${rated.id}`, { value: 1 })).statusCode).toBe(403);
    expect((await t.call(agent, 'DELETE', `/ticketEvaluations/${rated.id}`)).statusCode).toBe(403);
    for (const [method, body] of [
      ['PUT', { value: 2 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.call(admin, method, '/ticketEvaluations/999999', body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_EVALUATION_FOUND' });
      expect((await t.call(otherAdmin, method, `/ticketEvaluations/${rated.id}`, body)).statusCode).toBe(404);
    }
    expect((await t.call(admin, 'PUT', `/ticketEvaluations/${rated.id}`, { value: 9 })).statusCode).toBe(400);
    // Deleting a waiting rating lets the ticket go on without one.
    const ticketId = await openTicket(ratedChannel);
    const waiting = (await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId })).json<EvaluationDto>();
    expect((await t.call(admin, 'DELETE', `/ticketEvaluations/${waiting.id}`)).statusCode).toBe(204);
    expect(await awaiting(ticketId)).toBe(false);
  });
});

describe('rating configuration', () => {
  it('GET /tenants/rating carries the attempts; PUT /tenantsRatingData/{id} saves texts and attempts', async () => {
    const before = (await t.call(agent, 'GET', '/tenants/rating')).json()[0];
    expect(before.ratingAttempts).toBe(3);
    const res = await t.call(supervisor, 'PUT', `/tenantsRatingData/${admin.tenantId}`, {
      ratingStore: 'Valeu!',
      ratingAttempts: '5',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({
      ratingStore: 'Valeu!',
      ratingAttempts: 5,
      ratingStoreError: before.ratingStoreError,
    });
    expect((await t.call(agent, 'PUT', `/tenantsRatingData/${admin.tenantId}`, { ratingStore: 'x' })).statusCode).toBe(
      403,
    );
    for (const body of [{ ratingAttempts: 0 }, { ratingAttempts: 11 }, { ratingStore: '' }]) {
      expect((await t.call(admin, 'PUT', `/tenantsRatingData/${admin.tenantId}`, body)).statusCode).toBe(400);
    }
    const foreign = await t.call(otherAdmin, 'PUT', `/tenantsRatingData/${admin.tenantId}`, { ratingStore: 'x' });
    expect(foreign.statusCode).toBe(404);
    expect((await t.call(agent, 'GET', '/tenants/rating')).json()[0].ratingStore).toBe('Valeu!');
  });
});
