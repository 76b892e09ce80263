/**
 * A tenant's routing configuration as ingestion's hot path needs it (ARCHITECTURE §6k): which channels have a flow,
 * whether the default flow (setting `botTicketActive`), a legacy auto-reply or test numbers exist, which channels and
 * queues distribute, whether wallets route tickets, and the business hours with the absence message. Ingestion asks
 * it, inside the transaction that stores a customer's message, whether a new ticket may need the chatbot job; a
 * tenant with none of these configured enqueues nothing.
 *
 * Cached per tenant for `CHATBOT_CONFIG_TTL_MS` (5 s) in this process, and dropped at once by this process's changes
 * (the domain events of settings, queues, channels, the tenant's preferences and the chat flows / auto-replies);
 * another node's change is seen within the TTL. A read that started before a change is not kept (a generation per
 * tenant), so a stale configuration never outlives the change that made it stale.
 */
import { and, eq, or } from 'drizzle-orm';
import {
  DEFAULT_BUSINESS_HOURS,
  ENABLED,
  businessHoursDaySchema,
  isWithinBusinessHours,
  type BusinessHoursDay,
  type DistributionMode,
} from '@conversa/shared';
import { z } from 'zod';
import type { Queryable } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { channels } from '../channels/channels.tables.js';
import { queues } from '../queues/queues.tables.js';
import { findSetting, findTenantDocument } from '../settings/index.js';
import { tenants } from '../tenants/tenants.tables.js';
import { autoReplies, chatFlows } from './chatbot.tables.js';

export const CHATBOT_CONFIG_TTL_MS = 5_000;

import './chatbot.events.js';

export interface RoutingConfig {
  tenantId: number;
  timezone: string;
  businessHours: BusinessHoursDay[];
  /** The absence message (`messageBusinessHours`, trimmed): '' when none. */
  absenceMessage: string;
  /** Channels whose `chat_flow_id` names an active, not deleted flow. */
  flowChannels: ReadonlySet<number>;
  /** The setting botTicketActive names an active, not deleted flow: that flow's id. */
  defaultFlowId: number | null;
  /** An active legacy auto-reply with action 0 exists. */
  legacyActive: boolean;
  /** Digits of the test numbers of inactive flows and auto-replies. */
  testNumbers: ReadonlySet<string>;
  channelDistribution: ReadonlyMap<number, DistributionMode>;
  queueDistribution: ReadonlyMap<number, DistributionMode>;
  /** The setting DirectTicketsToWallets: wallet owners take their contacts' new tickets. */
  wallets: boolean;
}

const storedDays = z.array(businessHoursDaySchema).length(7);

/** Reads the configuration in the caller's transaction (the tenant's, RLS): one statement per table. */
export async function readRoutingConfig(tx: Queryable, tenantId: number): Promise<RoutingConfig> {
  const [tenant] = await tx.select({ timezone: tenants.timezone }).from(tenants).where(eq(tenants.id, tenantId));
  const flows = await tx
    .select({ id: chatFlows.id, isActive: chatFlows.isActive, celularTeste: chatFlows.celularTeste })
    .from(chatFlows)
    .where(and(eq(chatFlows.tenantId, tenantId), eq(chatFlows.isDeleted, false)));
  const replies = await tx
    .select({ isActive: autoReplies.isActive, action: autoReplies.action, celularTeste: autoReplies.celularTeste })
    .from(autoReplies)
    .where(eq(autoReplies.tenantId, tenantId));
  const channelRows = await tx
    .select({ id: channels.id, chatFlowId: channels.chatFlowId, distribution: channels.distribution })
    .from(channels)
    .where(eq(channels.tenantId, tenantId));
  const queueRows = await tx
    .select({ id: queues.id, distribution: queues.distribution })
    .from(queues)
    .where(and(eq(queues.tenantId, tenantId), or(eq(queues.distribution, 'R'), eq(queues.distribution, 'B'))));
  const activeFlows = new Set(flows.filter((f) => f.isActive).map((f) => f.id));
  const defaultFlow = Number(await findSetting(tx, tenantId, 'botTicketActive'));
  const days = storedDays.safeParse(await findTenantDocument(tx, tenantId, 'businessHours'));
  const message = z.string().safeParse(await findTenantDocument(tx, tenantId, 'messageBusinessHours'));
  const testNumbers = new Set<string>();
  for (const row of [...flows, ...replies]) if (!row.isActive && row.celularTeste) testNumbers.add(row.celularTeste);
  return {
    tenantId,
    timezone: tenant?.timezone ?? 'America/Sao_Paulo',
    businessHours: days.success ? days.data : DEFAULT_BUSINESS_HOURS,
    absenceMessage: message.success ? message.data.trim() : '',
    flowChannels: new Set(channelRows.filter((c) => c.chatFlowId && activeFlows.has(c.chatFlowId)).map((c) => c.id)),
    defaultFlowId: Number.isInteger(defaultFlow) && activeFlows.has(defaultFlow) ? defaultFlow : null,
    legacyActive: replies.some((r) => r.isActive && r.action === 0),
    testNumbers,
    channelDistribution: new Map(channelRows.filter((c) => c.distribution !== 'N').map((c) => [c.id, c.distribution])),
    queueDistribution: new Map(queueRows.map((q) => [q.id, q.distribution])),
    wallets: (await findSetting(tx, tenantId, 'DirectTicketsToWallets')) === ENABLED,
  };
}

/** Whether the absence rule can ever apply: a message to send and some hours the company is closed. */
export const hasAbsence = (config: RoutingConfig): boolean =>
  config.absenceMessage !== '' && config.businessHours.some((day) => day.type !== 'O');

/** The company attends now (tenant's time zone). */
export const isOpen = (config: RoutingConfig, at: Date): boolean =>
  isWithinBusinessHours(config.businessHours, config.timezone, at);

/** The absence message may go now: configured and outside business hours. */
export const absenceDue = (config: RoutingConfig, at: Date): boolean => hasAbsence(config) && !isOpen(config, at);

/** Whether a chat flow or an auto-reply may take a new ticket (the contact's number is checked by the job). */
export const mayRunFlow = (config: RoutingConfig, channelId: number): boolean =>
  config.flowChannels.has(channelId) ||
  config.defaultFlowId !== null ||
  config.legacyActive ||
  config.testNumbers.size > 0;

/** Whether distribution may assign a new ticket of this channel and queue. */
export const mayDistribute = (config: RoutingConfig, channelId: number, queueId: number | null): boolean =>
  config.wallets ||
  config.channelDistribution.has(channelId) ||
  (queueId !== null && config.queueDistribution.has(queueId));

export interface RoutingConfigCache {
  /** The tenant's configuration: cached, or read in `tx` (the caller's transaction of that tenant). */
  get(tx: Queryable, tenantId: number): Promise<RoutingConfig>;
  /** Drops the tenant's cached configuration (its next read goes to the database). */
  invalidate(tenantId: number): void;
}

export function createRoutingConfigCache(
  options: { ttlMs?: number; now?: () => number; read?: typeof readRoutingConfig } = {},
): RoutingConfigCache {
  const ttl = options.ttlMs ?? CHATBOT_CONFIG_TTL_MS;
  const now = options.now ?? Date.now;
  const read = options.read ?? readRoutingConfig;
  const entries = new Map<number, { config: RoutingConfig; at: number }>();
  const generations = new Map<number, number>();
  return {
    async get(tx, tenantId) {
      const entry = entries.get(tenantId);
      if (entry && now() - entry.at < ttl) return entry.config;
      const generation = generations.get(tenantId) ?? 0;
      const at = now();
      const config = await read(tx, tenantId);
      // A change published while this read ran may not be in it: keep it only when none was.
      if ((generations.get(tenantId) ?? 0) === generation) entries.set(tenantId, { config, at });
      return config;
    },
    invalidate(tenantId) {
      generations.set(tenantId, (generations.get(tenantId) ?? 0) + 1);
      entries.delete(tenantId);
    },
  };
}

/** The settings whose change alters the routing configuration. */
const ROUTING_SETTINGS = new Set(['botTicketActive', 'DirectTicketsToWallets']);

/** Drops a tenant's cached configuration on this process's changes that alter it. */
export function invalidateOnChanges(events: EventBus, cache: RoutingConfigCache): void {
  const drop = ({ tenantId }: { tenantId: number }) => cache.invalidate(tenantId);
  events.subscribe('chatbot.changed', drop);
  events.subscribe('tenants.preferences_changed', drop);
  events.subscribe('channels.changed', drop);
  events.subscribe('channels.deleted', drop);
  events.subscribe('queues.changed', drop);
  events.subscribe('settings.updated', (event) => {
    if (ROUTING_SETTINGS.has(event.setting.key)) cache.invalidate(event.tenantId);
  });
}
