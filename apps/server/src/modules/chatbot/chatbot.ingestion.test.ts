/**
 * Ingestion's side of the chatbot: the per-tenant routing configuration cache (read at most once per TTL, dropped by
 * this process's changes, a read overtaken by a change not kept) and the batch path (one `enqueueMany` for the
 * batch: a new ticket's first message only, every answer of a ticket the bot handles).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BUSINESS_HOURS, type SettingDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createEventBus } from '../../platform/events/bus.js';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';
import { ingestionFor, textEvent } from '../../test/messages-kit.js';
import { makeQueue } from '../../test/ticket-fixtures.js';
import { loadChannelCredentials, type ChannelCredentials } from '../channels/index.js';
import { createIngestion } from '../inbox/index.js';
import { createMediaLinks, messagesMediaStore } from '../messages/index.js';
import {
  createRoutingConfigCache,
  invalidateOnChanges,
  type RoutingConfig,
  type readRoutingConfig,
} from './chatbot.config.js';
import { chatbotIngestionHook } from './index.js';

const config = (tenantId: number): RoutingConfig => ({
  tenantId,
  timezone: 'UTC',
  businessHours: DEFAULT_BUSINESS_HOURS,
  absenceMessage: '',
  flowChannels: new Set(),
  defaultFlowId: null,
  legacyActive: false,
  testNumbers: new Set(),
  channelDistribution: new Map(),
  queueDistribution: new Map(),
  wallets: false,
});

describe('the routing configuration cache', () => {
  const tx = {} as never;

  it('reads a tenant once per TTL, whatever the number of messages', async () => {
    let clock = 0;
    const read = vi.fn<typeof readRoutingConfig>(async (_tx, tenantId) => config(tenantId));
    const cache = createRoutingConfigCache({ ttlMs: 5000, now: () => clock, read });
    for (let i = 0; i < 100; i += 1) await cache.get(tx, 1);
    expect(read).toHaveBeenCalledTimes(1);
    await cache.get(tx, 2);
    expect(read).toHaveBeenCalledTimes(2);
    clock = 4999;
    await cache.get(tx, 1);
    expect(read).toHaveBeenCalledTimes(2);
    clock = 5000;
    await cache.get(tx, 1);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("this process's changes drop the tenant's configuration at once; other settings and tenants keep theirs", async () => {
    const read = vi.fn<typeof readRoutingConfig>(async (_tx, tenantId) => config(tenantId));
    const cache = createRoutingConfigCache({ now: () => 0, read });
    const events = createEventBus(() => undefined);
    invalidateOnChanges(events, cache);
    const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
    const reads = async () => {
      await cache.get(tx, 1);
      await cache.get(tx, 2);
      return read.mock.calls.length;
    };
    expect(await reads()).toBe(2);
    const setting = (key: string) => ({ key, value: '1' }) as unknown as SettingDto;
    events.publish('settings.updated', { tenantId: 1, setting: setting('signed') });
    await flush();
    expect(await reads()).toBe(2);
    let expected = 2;
    const changes = [
      () => events.publish('settings.updated', { tenantId: 1, setting: setting('botTicketActive') }),
      () => events.publish('settings.updated', { tenantId: 1, setting: setting('DirectTicketsToWallets') }),
      () => events.publish('chatbot.changed', { tenantId: 1 }),
      () => events.publish('tenants.preferences_changed', { tenantId: 1, name: 'businessHours' }),
      () => events.publish('channels.deleted', { tenantId: 1, channelId: 3 }),
      () => events.publish('channels.changed', { tenantId: 1, channel: {} as never }),
      () => events.publish('queues.changed', { tenantId: 1, action: 'update', queue: {} as never }),
    ];
    for (const change of changes) {
      change();
      await flush();
      expected += 1;
      expect(await reads()).toBe(expected);
    }
  });

  it('a read that a change overtook is used once but not kept', async () => {
    let release: () => void = () => undefined;
    const read = vi.fn<typeof readRoutingConfig>(
      (_tx, tenantId) =>
        new Promise((resolve) => {
          release = () => resolve(config(tenantId));
        }),
    );
    const cache = createRoutingConfigCache({ now: () => 0, read });
    const pending = cache.get(tx, 1);
    cache.invalidate(1);
    release();
    await pending;
    const next = cache.get(tx, 1);
    release();
    await next;
    expect(read).toHaveBeenCalledTimes(2);
  });
});

describe('the batch path', () => {
  let kit: BotKit;
  const h = botHelpers(() => kit);
  let channel: ChannelCredentials;
  let sales: number;

  beforeAll(async () => {
    kit = await startBotKit();
    sales = await makeQueue(kit.t, 1, 'Vendas');
    channel = (await withTenant(kit.t.platform.db, systemContext(1), (tx) =>
      loadChannelCredentials(tx, kit.channel.id),
    ))!;
  });
  afterAll(async () => {
    await kit.close();
  });

  const inboundJobs = () =>
    queryRows<{ ticketId: number; messageId: number; created: boolean }>(
      kit.t.platform.db,
      sql`select (data->>'ticketId')::int as "ticketId", (data->>'messageId')::int as "messageId",
            (data->>'created')::boolean as created
          from pgboss.job where name = 'chatbot.inbound' and state = 'created' order by (data->>'messageId')::int`,
    );

  it('one insert for the batch: a new ticket once (its first message), each answer to the bot', async () => {
    const flow = await h.createFlow(
      graph({}, [
        { id: 'menu', say: ['1 Vendas'], conditions: [{ type: 'US', condition: ['1'], action: 1, queueId: sales }] },
      ]),
    );
    await h.setChannelFlow(flow.id);
    const { db, events } = kit.t.platform;
    const lane = createIngestion({
      db,
      events,
      jobs: kit.t.jobs,
      links: createMediaLinks(kit.t.platform.secrets.jwtSecret, kit.t.platform.config.publicUrl),
      store: messagesMediaStore(kit.t.platform),
      lanesPerChannel: 1,
      chatbot: chatbotIngestionHook(kit.t.platform),
    });
    await lane.ingest(channel, [textEvent('881', 'oi')]);
    await h.settle();
    expect(h.textsTo(881)).toEqual(['1 Vendas']);
    const notified: string[] = [];
    const off = events.subscribe('tickets.changed', (e) => {
      if (e.notify) notified.push(e.ticket.contact?.telegramId ?? '');
    });

    const enqueueMany = vi.spyOn(kit.t.jobs, 'enqueueMany');
    const before = lane.stats().batches;
    const burst = [
      textEvent('880', 'abre a fila'),
      textEvent('881', 'não sei'),
      textEvent('882', 'oi'),
      textEvent('881', '1'),
      textEvent('882', 'tudo bem?'),
    ];
    await Promise.all(burst.map((event) => lane.ingest(channel, [event])));
    expect(lane.stats().batches).toBe(before + 1);
    const calls = enqueueMany.mock.calls.filter(([definition]) => definition.name === 'chatbot.inbound');
    enqueueMany.mockRestore();
    // The opener went alone (its own insert), the other four in one batch: one insert.
    expect(calls).toHaveLength(2);
    const ticket = async (chatId: number) => (await h.ticketOf(chatId)).id;
    const jobs = await inboundJobs();
    expect(jobs.map(({ ticketId, created }) => ({ ticketId, created }))).toEqual([
      { ticketId: await ticket(880), created: true },
      { ticketId: await ticket(881), created: false },
      { ticketId: await ticket(882), created: true },
      { ticketId: await ticket(881), created: false },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The new tickets are announced without notify: the bot takes them.
    expect(notified).toEqual([]);
    await h.settle();
    off();
    expect(h.textsTo(882)).toEqual(['1 Vendas']);
    expect(await h.botState(await ticket(881))).toMatchObject({ queueId: sales, chatFlowId: null });
    expect(notified).toContain('881');
  });

  it('without the hook (tests, tools) ingestion enqueues nothing for the chatbot', async () => {
    const plain = ingestionFor(kit.t);
    await plain.ingest(channel, [textEvent('890', 'oi')]);
    expect(await kit.t.jobs.runPending(h.job('chatbot.inbound'))).toBe(0);
  });
});
