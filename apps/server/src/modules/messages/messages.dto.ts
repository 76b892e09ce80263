/**
 * Message rows to the wire shape (client-contract §20.3): the quoted message, the sender in groups, the agent, a
 * ticket summary, and a signed media URL once the media is stored. Relations are joined in the query that reads the
 * messages: one round trip per batch.
 */
import { eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MessageDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { idIn, prepared } from '../../platform/db/statements.js';
import { contacts } from '../contacts/index.js';
import { tickets } from '../tickets/index.js';
import { users } from '../users/index.js';
import type { MediaLinks } from './messages.media-links.js';
import type { MessageRow } from './messages.repository.js';
import { messages } from './messages.tables.js';

type TicketRef = MessageDto['ticket'];

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

type MediaFields = Pick<MessageRow, 'id' | 'tenantId' | 'mediaStatus' | 'mediaKey'>;

function mediaUrl(row: MediaFields, links: MediaLinks): string | null {
  return row.mediaStatus === 'ready' && row.mediaKey ? links.url(row.tenantId, row.id) : null;
}

const quoted = alias(messages, 'quoted');
const sender = alias(contacts, 'sender');
const quotedSender = alias(contacts, 'quoted_sender');

/** A message with everything its DTO shows, joined in the query that reads it (one round trip per batch). */
const JOINED = {
  message: messages,
  quoted: {
    id: quoted.id,
    tenantId: quoted.tenantId,
    messageId: quoted.messageId,
    body: quoted.body,
    edition: quoted.edition,
    mediaType: quoted.mediaType,
    mediaStatus: quoted.mediaStatus,
    mediaKey: quoted.mediaKey,
    mediaName: quoted.mediaName,
    fromMe: quoted.fromMe,
    isDeleted: quoted.isDeleted,
  },
  quotedSenderName: quotedSender.name,
  sender: { id: sender.id, name: sender.name, number: sender.number, profilePicUrl: sender.profilePicUrl },
  user: { id: users.id, name: users.name },
  ticket: {
    id: tickets.id,
    status: tickets.status,
    userId: tickets.userId,
    unreadMessages: tickets.unreadMessages,
    answered: tickets.answered,
    createdAt: tickets.createdAt,
  },
};

/**
 * Messages matching `where` with their relations, as DTO-ready rows. Callers add order, limit and offset; the
 * foreign key cascades and both rows share the tenant (RLS), so a message always has its ticket.
 */
export function selectJoinedMessages(tx: Tx, where: SQL | undefined) {
  return tx
    .select(JOINED)
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedSender, eq(quotedSender.id, quoted.senderContactId))
    .leftJoin(sender, eq(sender.id, messages.senderContactId))
    .leftJoin(users, eq(users.id, messages.userId))
    .where(where)
    .$dynamic();
}

export type JoinedMessage = Awaited<ReturnType<typeof selectJoinedMessages>>[number];

function ticketRef(ticket: { createdAt: Date } & Omit<TicketRef, 'createdAt'>): TicketRef {
  return { ...ticket, createdAt: ticket.createdAt.toISOString() };
}

export function toMessageDto(joined: JoinedMessage, links: MediaLinks): MessageDto {
  const { message: row, quoted, ticket, user, sender } = joined;
  return {
    id: row.id,
    messageId: row.messageId,
    ticketId: row.ticketId,
    contactId: row.contactId,
    body: row.body,
    mediaType: row.mediaType,
    mediaUrl: mediaUrl(row, links),
    mediaName: row.mediaName,
    mediaMime: row.mediaMime,
    mediaSize: row.mediaSize,
    mediaStatus: row.mediaStatus,
    fromMe: row.fromMe,
    read: row.read,
    ack: row.ack,
    status: row.status,
    sendType: row.sendType,
    isDelayed: row.isDelayed,
    isDeleted: row.isDeleted,
    deletedAt: iso(row.deletedAt),
    edition: row.edition,
    editedAt: iso(row.editedAt),
    reaction: row.reaction,
    reactionFromMe: row.reactionFromMe,
    isSticker: row.isSticker,
    idFront: row.idFront,
    meta: row.meta,
    quotedMsg: quoted
      ? {
          id: quoted.id,
          messageId: quoted.messageId,
          body: quoted.edition ?? quoted.body,
          mediaType: quoted.mediaType,
          mediaUrl: mediaUrl(quoted, links),
          mediaName: quoted.mediaName,
          fromMe: quoted.fromMe,
          isDeleted: quoted.isDeleted,
          contact: joined.quotedSenderName !== null ? { name: joined.quotedSenderName } : null,
        }
      : null,
    contact: row.senderContactId && sender ? sender : null,
    user: row.userId && user ? { id: user.id, name: user.name } : null,
    ticket: ticketRef(ticket),
    scheduleDate: iso(row.scheduleDate),
    timestamp: row.timestamp,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** DTOs of the given rows, in their order (one query reads them again with their relations). */
export async function loadMessageDtos(tx: Tx, rows: MessageRow[], links: MediaLinks): Promise<MessageDto[]> {
  if (rows.length === 0) return [];
  const joined = await prepared(
    selectJoinedMessages(
      tx,
      idIn(
        messages.id,
        rows.map((r) => r.id),
      ),
    ),
    'messages_dto',
  );
  const byId = new Map(joined.map((j) => [j.message.id, j]));
  return rows.flatMap((row) => {
    const found = byId.get(row.id);
    return found ? [toMessageDto(found, links)] : [];
  });
}

export async function loadMessageDto(tx: Tx, row: MessageRow, links: MediaLinks): Promise<MessageDto> {
  const [dto] = await loadMessageDtos(tx, [row], links);
  if (!dto) throw new Error(`message ${row.id} not found`);
  return dto;
}
