/**
 * Message rows to the wire shape (client-contract §20.3): the quoted message, the sender in groups, the agent, a
 * ticket summary (the whole ticket in socket events), and a signed media URL once the media is stored. Relations the
 * caller does not hold (`known`: the history page joins each message's ticket summary and agent) are loaded in one
 * query each per batch, each a prepared statement of a single table.
 */
import { IMPORTED_SEND_TYPE, type MessageDto, type MessageEventDto, type TicketDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { idIn, idList, statement } from '../../platform/db/statements.js';
import { contacts } from '../contacts/contacts.tables.js';
import { loadTicketDto, loadTicketDtos } from '../tickets/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';
import type { MediaLinks } from './messages.media-links.js';
import type { MessageRow } from './messages.types.js';
import { messages } from './messages.tables.js';

type ContactRef = NonNullable<MessageDto['contact']>;
type TicketRef = MessageDto['ticket'];
type UserRef = NonNullable<MessageDto['user']>;

/** Relations the caller already holds (read with the rows, or just loaded): not read again. */
export interface KnownRelations {
  tickets?: TicketRef[];
  users?: UserRef[];
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;
const unique = (ids: (number | null)[]): number[] => [...new Set(ids.filter((id): id is number => id !== null))];

function mediaUrl(row: MessageRow, links: MediaLinks): string | null {
  return row.mediaStatus === 'ready' && row.mediaKey ? links.url(row.tenantId, row.id) : null;
}

const quotedMessages = statement('messages_quoted', ['ids'], (q, p) =>
  q.select().from(messages).where(idIn(messages.id, p.ids)),
);
/** A group message's sender with the identity fields of a `/contacts` row (contactIdentitySchema). */
const senders = statement('message_senders', ['ids'], (q, p) =>
  q
    .select({
      id: contacts.id,
      name: contacts.name,
      number: contacts.number,
      email: contacts.email,
      profilePicUrl: contacts.profilePicUrl,
      pushname: contacts.pushname,
      isGroup: contacts.isGroup,
      telegramId: contacts.telegramId,
      messengerId: contacts.messengerId,
      instagramPK: contacts.instagramPK,
      hubWhatsapp: contacts.hubWhatsapp,
      blocked: contacts.blocked,
      chatbotBlocked: contacts.chatbotBlocked,
    })
    .from(contacts)
    .where(idIn(contacts.id, p.ids)),
);
const agents = statement('message_users', ['ids'], (q, p) =>
  q.select({ id: users.id, name: users.name }).from(users).where(idIn(users.id, p.ids)),
);
/** The ticket summary a message carries (its `createdAt` still a Date), as columns to select. */
export const ticketSummaryColumns = () => ({
  id: tickets.id,
  status: tickets.status,
  userId: tickets.userId,
  unreadMessages: tickets.unreadMessages,
  answered: tickets.answered,
  createdAt: tickets.createdAt,
});

const ticketSummaries = statement('message_tickets', ['ids'], (q, p) =>
  q.select(ticketSummaryColumns()).from(tickets).where(idIn(tickets.id, p.ids)),
);

/** Rows of `ids` by id, through a statement taking an id list (none read for an empty list). */
async function byIds<T extends { id: number }>(
  read: (tx: Tx, values: { ids: string }) => Promise<T[]>,
  tx: Tx,
  ids: number[],
): Promise<Map<number, T>> {
  if (ids.length === 0) return new Map();
  return new Map((await read(tx, { ids: idList(ids) })).map((row) => [row.id, row]));
}

async function loadRelations(tx: Tx, rows: MessageRow[], known: KnownRelations) {
  const quoted = await byIds(quotedMessages, tx, unique(rows.map((r) => r.quotedMsgId)));
  const contactMap: Map<number, ContactRef> = await byIds(
    senders,
    tx,
    unique([...rows, ...quoted.values()].map((r) => r.senderContactId)),
  );
  const userMap = new Map((known.users ?? []).map((user) => [user.id, user]));
  const userIds = unique(rows.map((r) => r.userId)).filter((id) => !userMap.has(id));
  for (const row of (await byIds(agents, tx, userIds)).values()) userMap.set(row.id, row);
  const ticketMap = new Map((known.tickets ?? []).map((ticket) => [ticket.id, ticket]));
  const ticketIds = unique(rows.map((r) => r.ticketId)).filter((id) => !ticketMap.has(id));
  for (const row of (await byIds(ticketSummaries, tx, ticketIds)).values()) {
    ticketMap.set(row.id, { ...row, createdAt: row.createdAt.toISOString() });
  }
  return { quoted, contactMap, userMap, ticketMap };
}

export function toMessageDto(
  row: MessageRow,
  related: Awaited<ReturnType<typeof loadRelations>>,
  links: MediaLinks,
): MessageDto {
  const quoted = row.quotedMsgId ? related.quoted.get(row.quotedMsgId) : undefined;
  // The foreign key cascades and both rows share the tenant (RLS), so a message always has its ticket.
  const ticket = related.ticketMap.get(row.ticketId);
  if (!ticket) throw new Error(`message ${row.id} without its ticket`);
  const user = row.userId ? related.userMap.get(row.userId) : undefined;
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
    sendError: row.sendError,
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
          contact: quoted.senderContactId ? { name: related.contactMap.get(quoted.senderContactId)?.name ?? '' } : null,
        }
      : null,
    contact: row.senderContactId ? (related.contactMap.get(row.senderContactId) ?? null) : null,
    user: user ? { id: user.id, name: user.name } : null,
    ticket,
    scheduleDate: iso(row.scheduleDate),
    timestamp: row.timestamp,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    syncTime: row.sendType === IMPORTED_SEND_TYPE ? row.createdAt.toISOString() : null,
  };
}

/** DTOs in the order of the rows, each with its ticket's summary (the history). */
export async function loadMessageDtos(
  tx: Tx,
  rows: MessageRow[],
  links: MediaLinks,
  known: KnownRelations = {},
): Promise<MessageDto[]> {
  if (rows.length === 0) return [];
  const related = await loadRelations(tx, rows, known);
  return rows.map((row) => toMessageDto(row, related, links));
}

/**
 * Messages as socket events carry them, each with its whole ticket: the caller passes the tickets it already loaded
 * (ingestion, sends, forwards: no read), any other is read in one statement (by its scalar id when it is the only
 * one: that statement keeps its generic plan). The ticket replaces the summary read, so an event costs no more
 * statements than a history message.
 */
export async function loadMessageEventDtos(
  tx: Tx,
  rows: MessageRow[],
  links: MediaLinks,
  held: TicketDto[] = [],
): Promise<MessageEventDto[]> {
  if (rows.length === 0) return [];
  const byId = new Map(held.map((ticket) => [ticket.id, ticket]));
  const missing = unique(rows.map((r) => r.ticketId)).filter((id) => !byId.has(id));
  const loaded = missing.length === 1 ? [await loadTicketDto(tx, missing[0]!)] : await loadTicketDtos(tx, missing);
  for (const ticket of loaded) if (ticket) byId.set(ticket.id, ticket);
  const related = await loadRelations(tx, rows, { tickets: [...byId.values()] });
  return rows.map((row) => ({ ...toMessageDto(row, related, links), ticket: byId.get(row.ticketId)! }));
}

/** One message as socket events carry it; `ticket` spares the read of a ticket the caller has just loaded. */
export async function loadMessageDto(
  tx: Tx,
  row: MessageRow,
  links: MediaLinks,
  ticket?: TicketDto | null,
): Promise<MessageEventDto> {
  const [dto] = await loadMessageEventDtos(tx, [row], links, ticket ? [ticket] : []);
  return dto!;
}
