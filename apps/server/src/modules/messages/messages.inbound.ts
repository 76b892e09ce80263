/**
 * The messages side of ingestion: store an inbound message once (unique provider id per channel) and apply the
 * provider's later changes to it (ack, edit, delete, reaction). Each returns the changed row, or null when nothing
 * changed (unknown message, replay, an ack that would go backwards).
 */
import { IMPORTED_SEND_TYPE, type MessageMediaType } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { and, between, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import {
  arrayLiteral,
  rawTableRows,
  statement,
  statementFamily,
  tableColumnList,
} from '../../platform/db/statements.js';
import { ticketTouch, ticketTouchMany } from '../tickets/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { findByProviderId, updateMessage, type MessageInsert, type MessageRow } from './messages.repository.js';
import { messages } from './messages.tables.js';

export interface InboundMessageValues {
  tenantId: number;
  ticketId: number;
  contactId: number;
  channelId: number;
  senderContactId: number | null;
  providerMessageId: string;
  fromMe: boolean;
  body: string;
  mediaType: MessageMediaType;
  media: { ref: string; mime: string | null; name: string | null; size: number | null } | null;
  isSticker: boolean;
  meta: string | null;
  quotedProviderMessageId: string | null;
  timestamp: number;
  /** History imported at a login (H8): marked `sendType 'import'` (the DTO's syncTime), read, no unread count. */
  imported?: boolean;
}

/** How a stored inbound message touches its ticket: which statement of the family runs. */
type InboundShape = boolean | 'imported';

const INBOUND_COLUMNS = [
  'tenantId',
  'ticketId',
  'contactId',
  'channelId',
  'senderContactId',
  'messageId',
  'fromMe',
  'read',
  'body',
  'mediaType',
  'mediaRef',
  'mediaName',
  'mediaMime',
  'mediaSize',
  'mediaStatus',
  'isSticker',
  'meta',
  'quotedMsgId',
  'ack',
  'status',
  'timestamp',
] as const satisfies readonly (keyof MessageInsert)[];

/**
 * The insert of an inbound message and the touch of its ticket (tickets module `ticketTouch`: the customer's message
 * waits for an answer; one written on the phone itself answers it), one statement built once per direction. Nothing
 * happens when the provider id is stored already: the touch runs only when the insert stored the row. A third shape,
 * `imported` (a login's history, H8), marks the message imported and touches the ticket without unread or answer.
 */
const insertInbound = statementFamily(
  'message_insert_inbound',
  [...INBOUND_COLUMNS, 'lastMessage', 'at'],
  (q, p, outbound: InboundShape) => {
    const values = Object.fromEntries(INBOUND_COLUMNS.map((column) => [column, p[column]])) as Record<
      (typeof INBOUND_COLUMNS)[number],
      (typeof p)[(typeof INBOUND_COLUMNS)[number]]
    >;
    const insert = outbound === 'imported' ? { ...values, sendType: sql.raw(`'${IMPORTED_SEND_TYPE}'`) } : values;
    const stored = q.$with('stored').as(q.insert(messages).values(insert).onConflictDoNothing().returning());
    const touch = { ticketId: p.ticketId, lastMessage: p.lastMessage, at: p.at };
    const receivedAt = sql`least(coalesce(to_timestamp(${p.timestamp}::bigint / 1000.0), ${p.at}::timestamptz), ${p.at}::timestamptz)`;
    const touched = q.$with('touched').as(
      ticketTouch(q, touch, outbound, sql`exists (select 1 from ${stored})`, receivedAt).returning({
        id: tickets.id,
      }),
    );
    return q.with(stored, touched).select().from(stored);
  },
);

/**
 * The stored row (and its ticket touched with `lastMessage`), or undefined when that provider id is already stored
 * (a replay or a concurrent duplicate: then the ticket is left as it was).
 */
export async function storeInboundMessage(
  tx: Tx,
  values: InboundMessageValues,
  lastMessage: string,
): Promise<MessageRow | undefined> {
  const quoted = values.quotedProviderMessageId
    ? await findByProviderId(tx, values.channelId, values.quotedProviderMessageId)
    : undefined;
  const media = values.media;
  const row: Required<Pick<MessageInsert, (typeof INBOUND_COLUMNS)[number]>> = {
    tenantId: values.tenantId,
    ticketId: values.ticketId,
    contactId: values.contactId,
    channelId: values.channelId,
    senderContactId: values.senderContactId,
    messageId: values.providerMessageId,
    fromMe: values.fromMe,
    read: values.fromMe || values.imported === true,
    body: values.body,
    mediaType: values.mediaType,
    mediaRef: media?.ref ?? null,
    mediaName: media?.name ?? null,
    mediaMime: media?.mime ?? null,
    mediaSize: media?.size ?? null,
    mediaStatus: media ? 'pending' : 'none',
    isSticker: values.isSticker,
    meta: values.meta,
    quotedMsgId: quoted?.id ?? null,
    ack: values.fromMe ? 1 : 0,
    status: values.fromMe ? 'sended' : 'received',
    timestamp: values.timestamp,
  };
  // An imported message touches its ticket at its own time (an older one does not replace the ticket's newest).
  const [stored] = values.imported
    ? await insertInbound(tx, 'imported', { ...row, lastMessage, at: new Date(values.timestamp) })
    : await insertInbound(tx, values.fromMe, { ...row, lastMessage, at: new Date() });
  return stored;
}

/** A customer's message of a batch: the columns of `storeInboundMessages`, and the text its ticket row shows. */
export type BatchedInboundMessage = Omit<
  InboundMessageValues,
  'tenantId' | 'channelId' | 'senderContactId' | 'fromMe'
> & {
  lastMessage: string;
};

/**
 * A batch of customers' messages of one channel, inserted in their order and their tickets touched, in one statement:
 * the batch's columns travel as arrays (`unnest ... with ordinality`), each quoted message is resolved by its provider
 * id, a provider id already stored is skipped, and each ticket is touched once (unread + the number stored, its
 * latest message shown). Messages written on the phone and group messages are not batched (`storeInboundMessage`).
 */
const insertInboundMany = statement(
  'message_insert_inbound_many',
  [
    'tenantId',
    'channelId',
    'at',
    'ticketIds',
    'contactIds',
    'messageIds',
    'bodies',
    'mediaTypes',
    'mediaRefs',
    'mediaNames',
    'mediaMimes',
    'mediaSizes',
    'stickers',
    'metas',
    'quoted',
    'timestamps',
    'previews',
  ],
  (q, p) =>
    rawTableRows(
      q,
      sql`with input as (
            select * from unnest(${p.ticketIds}::bigint[], ${p.contactIds}::bigint[], ${p.messageIds}::text[],
              ${p.bodies}::text[], ${p.mediaTypes}::text[], ${p.mediaRefs}::text[], ${p.mediaNames}::text[],
              ${p.mediaMimes}::text[], ${p.mediaSizes}::int[], ${p.stickers}::boolean[], ${p.metas}::text[],
              ${p.quoted}::text[], ${p.timestamps}::bigint[], ${p.previews}::text[])
              with ordinality as i(ticket_id, contact_id, message_id, body, media_type, media_ref, media_name,
                media_mime, media_size, is_sticker, meta, quoted, ts, preview, ord)
          ),
          stored as (
            insert into messages (tenant_id, ticket_id, contact_id, channel_id, message_id, from_me, read, body,
              media_type, media_ref, media_name, media_mime, media_size, media_status, is_sticker, meta, quoted_msg_id,
              ack, status, timestamp)
            select ${p.tenantId}::bigint, i.ticket_id, i.contact_id, ${p.channelId}::bigint, i.message_id, false,
              false, i.body, i.media_type, i.media_ref, i.media_name, i.media_mime, i.media_size,
              case when i.media_ref is null then 'none' else 'pending' end, i.is_sticker, i.meta,
              (select quoted.id from messages quoted
                where quoted.tenant_id = ${p.tenantId}::bigint and quoted.channel_id = ${p.channelId}::bigint
                  and quoted.message_id = i.quoted limit 1),
              0, 'received', i.ts
            from input i
            order by i.ord
            on conflict do nothing
            returning ${tableColumnList(messages)}
          ),
          latest as (
            select distinct on (s.ticket_id) s.ticket_id, i.preview, count(*) over (partition by s.ticket_id) as n,
              max(least(coalesce(to_timestamp(s.timestamp / 1000.0), ${p.at}::timestamptz), ${p.at}::timestamptz))
                over (partition by s.ticket_id) as received_at
            from stored s join input i on i.message_id = s.message_id
            order by s.ticket_id, i.ord desc
          ),
          touched as (${ticketTouchMany(q, 'latest', p.at).getSQL()})
          select ${tableColumnList(messages)} from stored`,
      messages,
    ),
);

/**
 * Stores a batch of customers' messages of one channel (see `insertInboundMany`); the rows stored, in the batch's
 * order. A provider id given twice in the batch is stored once.
 */
export async function storeInboundMessages(
  tx: Tx,
  tenantId: number,
  channelId: number,
  batch: readonly BatchedInboundMessage[],
): Promise<MessageRow[]> {
  const seen = new Set<string>();
  const unique = batch.filter((m) => !seen.has(m.providerMessageId) && seen.add(m.providerMessageId));
  if (unique.length === 0) return [];
  const column = <T extends string | number | boolean | null>(pick: (m: BatchedInboundMessage) => T) =>
    arrayLiteral(unique.map(pick));
  const rows = await insertInboundMany(tx, {
    tenantId,
    channelId,
    at: new Date(),
    ticketIds: column((m) => m.ticketId),
    contactIds: column((m) => m.contactId),
    messageIds: column((m) => m.providerMessageId),
    bodies: column((m) => m.body),
    mediaTypes: column((m) => m.mediaType),
    mediaRefs: column((m) => m.media?.ref ?? null),
    mediaNames: column((m) => m.media?.name ?? null),
    mediaMimes: column((m) => m.media?.mime ?? null),
    mediaSizes: column((m) => m.media?.size ?? null),
    stickers: column((m) => m.isSticker),
    metas: column((m) => m.meta),
    quoted: column((m) => m.quotedProviderMessageId),
    timestamps: column((m) => m.timestamp),
    previews: column((m) => m.lastMessage),
  });
  const order = new Map(unique.map((m, i) => [m.providerMessageId, i]));
  rows.sort((a, b) => order.get(a.messageId!)! - order.get(b.messageId!)!);
  // A quote of a message stored by this same statement was not visible to it: link those now (a reply sent right
  // after its original, both in one batch).
  const idOf = new Map(rows.map((row) => [row.messageId!, row.id]));
  const quotes = new Map(unique.map((m) => [m.providerMessageId, m.quotedProviderMessageId]));
  for (const [i, row] of rows.entries()) {
    const quoted = idOf.get(quotes.get(row.messageId!) ?? '');
    if (quoted !== undefined && row.quotedMsgId === null) {
      rows[i] = (await updateMessage(tx, row.id, { quotedMsgId: quoted })) ?? row;
    }
  }
  return rows;
}

/**
 * The message a status names: by the id it names, else by `alias`, the id the provider's network gave the message
 * (the NotificaMe hub's `providerMessageId`: its later statuses come under new ids of their own and name the message
 * by that alias alone). The first status naming both makes the alias the message's stored provider id (one indexed
 * column, unique per channel), so the later ones find it; an alias another message of the channel holds is left.
 */
async function findStatusTarget(tx: Tx, channelId: number, providerId: string, alias: string | null | undefined) {
  const row =
    (await findByProviderId(tx, channelId, providerId, true)) ??
    (alias ? await findByProviderId(tx, channelId, alias, true) : undefined);
  if (!row || !alias || row.messageId === alias || (await findByProviderId(tx, channelId, alias))) return row;
  return (await updateMessage(tx, row.id, { messageId: alias })) ?? row;
}

/**
 * Acks only move forward: a late 'delivered' never overwrites 'read'. `pricing` (WhatsApp Cloud API statuses) stores
 * the category and conversation Meta billed the message under, also on an ack that does not move. A message marked
 * undelivered stays so (isDelayed and sendError are not touched here). `alias`: see findStatusTarget.
 */
export async function applyInboundAck(
  tx: Tx,
  channelId: number,
  providerId: string,
  ack: number,
  pricing?: { category: string | null; conversationId: string | null } | null,
  alias?: string | null,
) {
  const row = await findStatusTarget(tx, channelId, providerId, alias);
  if (!row) return null;
  const patch: { ack?: number; pricingCategory?: string; conversationId?: string } = {};
  if (ack > row.ack) patch.ack = ack;
  if (pricing?.category && pricing.category !== row.pricingCategory) patch.pricingCategory = pricing.category;
  if (pricing?.conversationId && pricing.conversationId !== row.conversationId) {
    patch.conversationId = pricing.conversationId;
  }
  if (Object.keys(patch).length === 0) return null;
  return (await updateMessage(tx, row.id, patch)) ?? null;
}

/** How many of a chat's sent messages one read receipt marks read at most (the newest). */
const READ_UP_TO_MAX = 200;

/**
 * A read receipt that names no message (Messenger's watermark): the messages we sent the contact on the channel,
 * sent or delivered (ack 1-2) and created until `watermark`, become read. The rows changed, newest first.
 */
export async function applyInboundReadUpTo(
  tx: Tx,
  channelId: number,
  contactId: number,
  watermark: number,
): Promise<MessageRow[]> {
  const unread = tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.contactId, contactId),
        eq(messages.channelId, channelId),
        eq(messages.fromMe, true),
        between(messages.ack, 1, 2),
        lte(messages.createdAt, new Date(watermark)),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(READ_UP_TO_MAX);
  return tx
    .update(messages)
    .set({ ack: 3, updatedAt: sql`now()` })
    .where(inArray(messages.id, unread))
    .returning();
}

/**
 * The provider refused a message it had accepted (Cloud API `failed` status): marked undelivered with the reason,
 * as the send job marks a send it gave up on. Null when unknown or already marked with the same reason.
 */
export async function applyInboundSendFailure(
  tx: Tx,
  channelId: number,
  providerId: string,
  error: string,
  alias?: string | null,
) {
  const row = await findStatusTarget(tx, channelId, providerId, alias);
  if (!row || !row.fromMe || (row.isDelayed && row.sendError === error)) return null;
  return (await updateMessage(tx, row.id, { isDelayed: true, sendError: error.slice(0, 500) })) ?? null;
}

export async function applyInboundEdit(tx: Tx, channelId: number, providerId: string, body: string, at: Date) {
  const row = await findByProviderId(tx, channelId, providerId, true);
  if (!row || row.isDeleted || row.edition === body) return null;
  return (await updateMessage(tx, row.id, { edition: body, editedAt: at })) ?? null;
}

export async function applyInboundDelete(tx: Tx, channelId: number, providerId: string, at: Date) {
  const row = await findByProviderId(tx, channelId, providerId, true);
  if (!row || row.isDeleted) return null;
  return (await updateMessage(tx, row.id, { isDeleted: true, deletedAt: at })) ?? null;
}

/** An empty reaction removes it. */
export async function applyInboundReaction(tx: Tx, channelId: number, providerId: string, reaction: string) {
  const row = await findByProviderId(tx, channelId, providerId, true);
  const next = reaction || null;
  if (!row || row.reaction === next) return null;
  return (await updateMessage(tx, row.id, { reaction: next })) ?? null;
}
