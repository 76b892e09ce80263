/**
 * The messages side of ingestion: store an inbound message once (unique provider id per channel) and apply the
 * provider's later changes to it (ack, edit, delete, reaction). Each returns the changed row, or null when nothing
 * changed (unknown message, replay, an ack that would go backwards).
 */
import type { MessageMediaType } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { sql } from 'drizzle-orm';
import { statementFamily } from '../../platform/db/statements.js';
import { ticketTouch, tickets } from '../tickets/index.js';
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
}

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
 * happens when the provider id is stored already: the touch runs only when the insert stored the row.
 */
const insertInbound = statementFamily(
  'message_insert_inbound',
  [...INBOUND_COLUMNS, 'lastMessage', 'at'],
  (q, p, outbound: boolean) => {
    const values = Object.fromEntries(INBOUND_COLUMNS.map((column) => [column, p[column]])) as Record<
      (typeof INBOUND_COLUMNS)[number],
      (typeof p)[(typeof INBOUND_COLUMNS)[number]]
    >;
    const stored = q.$with('stored').as(q.insert(messages).values(values).onConflictDoNothing().returning());
    const touch = { ticketId: p.ticketId, lastMessage: p.lastMessage, at: p.at };
    const touched = q
      .$with('touched')
      .as(ticketTouch(q, touch, outbound, sql`exists (select 1 from ${stored})`).returning({ id: tickets.id }));
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
    read: values.fromMe,
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
  const [stored] = await insertInbound(tx, values.fromMe, { ...row, lastMessage, at: new Date() });
  return stored;
}

/** Acks only move forward: a late 'delivered' never overwrites 'read'. */
export async function applyInboundAck(tx: Tx, channelId: number, providerId: string, ack: number) {
  const row = await findByProviderId(tx, channelId, providerId, true);
  if (!row || ack <= row.ack) return null;
  return (await updateMessage(tx, row.id, { ack })) ?? null;
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
