/**
 * Test fixtures for the tickets tests: channels, contacts, queues and tickets in a given state, and a recording
 * double of the messaging port (the messages module's side: it records calls and inserts nothing).
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TicketStatus } from '@conversa/shared';
import type { Tx } from '../platform/db/client.js';
import { systemContext, withTenant, type TenantContext } from '../platform/db/tenancy.js';
import type { TestApp } from './harness.js';
import { channels } from '../modules/channels/channels.tables.js';
import { contacts, contactWallets } from '../modules/contacts/contacts.tables.js';
import { queues, userQueues } from '../modules/queues/queues.tables.js';
import { settings } from '../modules/settings/settings.tables.js';
import { allocateProtocol, type TicketMessagingPort } from '../modules/tickets/index.js';
import { tickets } from '../modules/tickets/tickets.tables.js';

export interface PortCall {
  method: 'queueSystemMessage' | 'requeueStuckSends';
  tenantId: number;
  ticketId?: number;
  body?: string;
  sendType?: string;
}

export function recordingPort(stuck = 3): { port: TicketMessagingPort; calls: PortCall[] } {
  const calls: PortCall[] = [];
  return {
    calls,
    port: {
      async queueSystemMessage(_tx: Tx, ctx: TenantContext, ticketId: number, body: string, sendType: 'farewell') {
        calls.push({ method: 'queueSystemMessage', tenantId: ctx.tenantId, ticketId, body, sendType });
      },
      async queueSystemMedia() {
        throw new Error('the recording port sends no media');
      },
      async requeueStuckSends(_tx: Tx, ctx: TenantContext) {
        calls.push({ method: 'requeueStuckSends', tenantId: ctx.tenantId });
        return stuck;
      },
    },
  };
}

const asSystem = <T>(t: TestApp, tenantId: number, fn: (tx: Tx) => Promise<T>) =>
  withTenant(t.platform.db, systemContext(tenantId), fn);

export async function makeChannel(
  t: TestApp,
  tenantId: number,
  values: { name?: string; farewellMessage?: string | null; isDefault?: boolean } = {},
): Promise<number> {
  const [row] = await asSystem(t, tenantId, (tx) =>
    tx
      .insert(channels)
      .values({
        tenantId,
        name: values.name ?? `Canal ${crypto.randomBytes(2).toString('hex')}`,
        type: 'telegram',
        status: 'CONNECTED',
        webhookSecret: crypto.randomBytes(8).toString('hex'),
        farewellMessage: values.farewellMessage ?? null,
        isDefault: values.isDefault ?? false,
      })
      .returning({ id: channels.id }),
  );
  return row!.id;
}

export async function makeContact(
  t: TestApp,
  tenantId: number,
  /** `telegramId`: the contact's chat on Telegram channels (the fixtures' channels), needed to open a ticket there. */
  values: { name?: string; number?: string; telegramId?: string; wallets?: number[] } = {},
): Promise<number> {
  return asSystem(t, tenantId, async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values({
        tenantId,
        name: values.name ?? 'Cliente',
        number: values.number ?? null,
        telegramId: values.telegramId ?? null,
      })
      .returning({ id: contacts.id });
    for (const userId of values.wallets ?? []) {
      await tx.insert(contactWallets).values({ tenantId, contactId: row!.id, userId });
    }
    return row!.id;
  });
}

/** A contact a ticket can be opened with on the fixtures' Telegram channels (it has a chat id there). */
export const makeTelegramContact = (t: TestApp, tenantId: number, values: { name?: string; number?: string } = {}) =>
  makeContact(t, tenantId, { ...values, telegramId: String(crypto.randomInt(1_000_000, 2_000_000_000)) });

export async function makeQueue(t: TestApp, tenantId: number, name: string, members: number[] = []) {
  return asSystem(t, tenantId, async (tx) => {
    const [row] = await tx.insert(queues).values({ tenantId, queue: name }).returning({ id: queues.id });
    for (const userId of members) await tx.insert(userQueues).values({ tenantId, userId, queueId: row!.id });
    return row!.id;
  });
}

export interface TicketState {
  contactId: number;
  channelId: number | null;
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  chatFlowId?: number | null;
  isGroup?: boolean;
  unreadMessages?: number;
  updatedAt?: Date;
}

export async function makeTicket(t: TestApp, tenantId: number, state: TicketState): Promise<number> {
  return asSystem(t, tenantId, async (tx) => {
    const [row] = await tx
      .insert(tickets)
      .values({
        tenantId,
        channel: 'telegram',
        protocol: await allocateProtocol(tx, tenantId),
        status: 'pending',
        ...state,
      })
      .returning({ id: tickets.id });
    return row!.id;
  });
}

export async function setVisibility(t: TestApp, tenantId: number, values: Record<string, 'enabled' | 'disabled'>) {
  await asSystem(t, tenantId, async (tx) => {
    for (const [key, value] of Object.entries(values)) {
      await tx.execute(sql`update ${settings} set value = ${value} where tenant_id = ${tenantId} and key = ${key}`);
    }
  });
}

export async function ticketRow(t: TestApp, id: number) {
  const { rows } = await t.database.executeSql('select * from tickets where id = $1', [id]);
  return rows[0] as Record<string, unknown> | undefined;
}

export async function logTypes(t: TestApp, ticketId: number): Promise<string[]> {
  const { rows } = await t.database.executeSql('select type from ticket_logs where ticket_id = $1 order by id', [
    ticketId,
  ]);
  return rows.map((r) => r.type as string);
}

/** Replaces the tenant's toggles (client-contract §10) with `flags` (absent keys take their defaults). */
export async function setTenantFlags(t: TestApp, tenantId: number, flags: Record<string, string | number>) {
  await t.database.executeSql('update tenants set flags = $2::jsonb where id = $1', [tenantId, JSON.stringify(flags)]);
}

/** Replaces the user's allowed channels (`whatsappAllowed`, table user_channels); [] = every channel. */
export async function allowChannels(t: TestApp, tenantId: number, userId: number, channelIds: number[]) {
  await asSystem(t, tenantId, async (tx) => {
    await tx.execute(sql`delete from user_channels where user_id = ${userId}`);
    for (const channelId of channelIds) {
      await tx.execute(
        sql`insert into user_channels (tenant_id, user_id, channel_id) values (${tenantId}, ${userId}, ${channelId})`,
      );
    }
  });
}
