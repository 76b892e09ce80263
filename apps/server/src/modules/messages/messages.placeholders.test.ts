/**
 * Placeholders ({{name}}, {{firstName}}, {{protocol}}, {{greeting}}) rendered by the one renderer
 * (messages.placeholders.ts) in every text the server sends for a ticket: the channel's farewell and a closing message
 * picked on resolve, the auto-close message, a farewell a client sends with `sendType`, a quick message, a scheduled
 * message when it goes out (the chat flow's own tests cover its steps and the absence message).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, lookupOf, TestAdapter, textEvent } from '../../test/messages-kit.js';
import type { ChannelCredentials } from '../channels/index.js';
import type { Ingestion } from '../inbox/index.js';
import { createSchedulesJobs } from '../schedules/index.js';
import { AUTO_CLOSE_JOB } from '../tickets/index.js';
import { createMediaLinks } from './index.js';
import { greetingAt, renderPlaceholders } from './messages.placeholders.js';

describe('renderPlaceholders', () => {
  const values = { name: 'Maria  Souza', protocol: '20261202-0007', timeZone: 'America/Sao_Paulo' };
  // 12:30Z is 09:30 in São Paulo (UTC-3).
  const morning = new Date('2026-12-02T12:30:00Z');

  it('fills name, firstName, protocol and greeting, any case, spaces inside the braces', () => {
    expect(
      renderPlaceholders(
        '{{greeting}}, {{ firstName }}! {{NAME}}: protocolo {{protocol}}. {{firstname}}',
        values,
        morning,
      ),
    ).toBe('Bom dia, Maria! Maria  Souza: protocolo 20261202-0007. Maria');
  });

  it('leaves unknown placeholders and plain texts as written', () => {
    expect(renderPlaceholders('Oi {{nome}} {{1}} {{', values, morning)).toBe('Oi {{nome}} {{1}} {{');
    expect(renderPlaceholders('Sem variáveis', values, morning)).toBe('Sem variáveis');
  });

  it("greets by the hour on the company's clock", () => {
    const at = (iso: string, zone = 'America/Sao_Paulo') => greetingAt(new Date(iso), zone);
    expect(at('2026-12-02T08:00:00Z')).toBe('Bom dia'); // 05:00 local
    expect(at('2026-12-02T07:59:00Z')).toBe('Boa noite'); // 04:59
    expect(at('2026-12-02T15:00:00Z')).toBe('Boa tarde'); // 12:00
    expect(at('2026-12-02T21:00:00Z')).toBe('Boa noite'); // 18:00
    // The same instant in Lisbon (UTC+0 in December) is 08:00.
    expect(at('2026-12-02T08:00:00Z', 'Europe/Lisbon')).toBe('Bom dia');
    expect(at('2026-12-02T15:00:00Z', 'Asia/Tokyo')).toBe('Boa noite'); // 00:00
  });
});

describe('texts the server sends for a ticket', () => {
  let t: TestApp;
  let admin: TestUser;
  let agent: TestUser;
  let channel: ChannelCredentials;
  let ingestion: Ingestion;
  let chatSeq = 9300;

  beforeAll(async () => {
    t = await createTestApp({}, { adapters: lookupOf(new TestAdapter()) });
    const tenant = await t.createTenant();
    ({ admin, agent } = await t.createStaff(tenant));
    channel = await createTelegramChannel(t, tenant, {
      farewellMessage: 'Até logo, {{name}}! Protocolo {{protocol}}.',
    });
    ingestion = ingestionFor(t);
  });
  afterAll(async () => t.close());

  /** A customer named `Maria Souza` writes; the agent holds the ticket. */
  async function conversation(): Promise<{ id: number; protocol: string }> {
    const chatId = String((chatSeq += 1));
    const event = textEvent(chatId, 'olá');
    await ingestion.ingest(channel, [event]);
    const [row] = await queryRows<{ ticket_id: number; contact_id: number }>(
      t.platform.db,
      sql`select ticket_id, contact_id from messages where message_id = ${event.providerMessageId}`,
    );
    await t.database.executeSql(`update contacts set name = 'Maria Souza' where id = $1`, [row!.contact_id]);
    await t.database.executeSql(`update tickets set status = 'open', user_id = $2 where id = $1`, [
      row!.ticket_id,
      agent.id,
    ]);
    const [ticket] = await queryRows<{ protocol: string }>(
      t.platform.db,
      sql`select protocol from tickets where id = ${row!.ticket_id}`,
    );
    return { id: Number(row!.ticket_id), protocol: ticket!.protocol };
  }

  async function sentBodies(ticketId: number): Promise<string[]> {
    const rows = await queryRows<{ body: string }>(
      t.platform.db,
      sql`select body from messages where ticket_id = ${ticketId} and from_me order by id`,
    );
    return rows.map((r) => r.body);
  }

  it("the channel's farewell on resolve", async () => {
    const ticket = await conversation();
    const res = await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'closed', userId: agent.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sentBodies(ticket.id)).toEqual([`Até logo, Maria Souza! Protocolo ${ticket.protocol}.`]);
  });

  it('a closing message picked on resolve', async () => {
    const ticket = await conversation();
    const res = await t.call(agent, 'PUT', `/tickets/${ticket.id}`, {
      status: 'closed',
      userId: agent.id,
      farewellMessage: 'Obrigado, {{firstName}}.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sentBodies(ticket.id)).toEqual(['Obrigado, Maria.']);
  });

  it('a farewell the client sends as a message (sendType farewell), but not an agent’s own text', async () => {
    const ticket = await conversation();
    const farewell = await t.call(agent, 'POST', `/messages/${ticket.id}`, {
      body: 'Tchau, {{firstName}}!',
      sendType: 'farewell',
    });
    expect(farewell.statusCode, farewell.body).toBe(200);
    const own = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Use {{name}} no modelo' });
    expect(own.statusCode, own.body).toBe(200);
    expect(await sentBodies(ticket.id)).toEqual(['Tchau, Maria!', 'Use {{name}} no modelo']);
  });

  it('a quick message the server sends', async () => {
    const ticket = await conversation();
    const created = await t.call(admin, 'POST', '/fastreply/', { key: 'ola', message: '{{greeting}}, {{name}}!' });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.call(agent, 'POST', `/messages/${ticket.id}`, { quickMessageId: created.json().id });
    expect(res.statusCode, res.body).toBe(200);
    const [body] = await sentBodies(ticket.id);
    expect(body).toMatch(/^(Bom dia|Boa tarde|Boa noite), Maria Souza!$/);
  });

  it('a scheduled message when it goes out', async () => {
    const ticket = await conversation();
    const res = await t.call(agent, 'POST', `/messages/${ticket.id}`, {
      body: 'Lembrete, {{firstName}}: protocolo {{protocol}}',
      scheduleDate: '2099-01-01 09:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ id: number }>().id;
    await t.database.executeSql(
      `update scheduled_messages set schedule_at = now() - interval '1 second' where id = $1`,
      [id],
    );
    const { db, events, secrets, config } = t.platform;
    const links = createMediaLinks(secrets.jwtSecret, config.publicUrl);
    await createSchedulesJobs({ db, events, queue: t.jobs, links }).send.handler({
      tenantId: admin.tenantId,
      scheduleId: id,
    });
    expect(await sentBodies(ticket.id)).toEqual([`Lembrete, Maria: protocolo ${ticket.protocol}`]);
  });

  it('the auto-close message', async () => {
    const ticket = await conversation();
    const tenantId = admin.tenantId;
    const set = (key: string, value: string) =>
      t.database.executeSql(
        `insert into settings (tenant_id, key, value) values ($1, $2, $3)
         on conflict (tenant_id, key) do update set value = excluded.value`,
        [tenantId, key, value],
      );
    // Our answer two hours ago, nothing since; auto-close (10 min) switched on a day ago.
    await t.database.executeSql(
      `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body, media_type, status, created_at)
         select tenant_id, id, contact_id, channel_id, true, 'resposta', 'chat', 'sended', now() - interval '2 hours'
         from tickets where id = $1`,
      [ticket.id],
    );
    await t.database.executeSql(
      `update tickets set last_message_at = now() - interval '2 hours', updated_at = now() - interval '2 hours'
       where id = $1`,
      [ticket.id],
    );
    await t.database.executeSql(
      `update messages set created_at = now() - interval '3 hours' where ticket_id = $1 and not from_me`,
      [ticket.id],
    );
    await set('autoClose', 'enabled');
    await set('autoCloseTime', '10');
    await set('autoCloseMessage', 'Encerramos por inatividade, {{firstName}}.');
    await set('doc:autoCloseSince', String(Date.now() - 86_400_000));
    // The app's own auto-close job (its sweep), as the cron runs it.
    const job = t.jobDefinitions.find((d) => d.name === AUTO_CLOSE_JOB)!;
    await (job.handler as (payload: object) => Promise<unknown>)({});
    const bodies = await sentBodies(ticket.id);
    expect(bodies.at(-1)).toBe('Encerramos por inatividade, Maria.');
  });
});
