/**
 * Ticket rows to the wire shape of client-contract §20.2 (the list row of §20.1 is a subset: the list route's
 * response schema keeps only its fields). Contacts come with their tags and wallets through the contacts module.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { idIn, idList, statement } from '../../platform/db/statements.js';
import type { ContactDto, TicketDto } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { channels } from '../channels/channels.tables.js';
import { contactSetColumns, toContactDto } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { queues } from '../queues/queues.tables.js';
import { users } from '../users/users.tables.js';
import type { TicketRow } from './tickets.types.js';
import { tickets } from './tickets.tables.js';

interface Joined {
  ticket: TicketRow;
  userName: string | null;
  queueName: string | null;
  channel: Pick<typeof channels.$inferSelect, 'id' | 'name' | 'type' | 'status' | 'sendEvaluation'> | null;
}

const epochMs = (value: Date | null): number | null => (value ? value.getTime() : null);

function toTicketDto({ ticket, userName, queueName, channel }: Joined, contact: ContactDto): TicketDto {
  const integrations = {
    difyStatus: ticket.difyStatus,
    lmStatus: ticket.lmStatus,
    n8nStatus: ticket.n8nStatus,
    typebotStatus: ticket.typebotStatus,
    dialogflowStatus: ticket.dialogflowStatus,
    chatgptStatus: ticket.chatgptStatus,
  };
  return {
    id: ticket.id,
    tenantId: ticket.tenantId,
    status: ticket.status,
    contactId: ticket.contactId,
    name: contact.name,
    profilePicUrl: contact.profilePicUrl,
    userId: ticket.userId,
    username: userName,
    user: ticket.userId !== null && userName !== null ? { id: ticket.userId, name: userName } : null,
    queueId: ticket.queueId,
    queue: queueName,
    whatsappId: ticket.channelId,
    whatsapp: channel,
    channel: ticket.channel,
    isGroup: ticket.isGroup,
    unreadMessages: ticket.unreadMessages,
    answered: ticket.answered,
    lastMessage: ticket.lastMessage,
    lastMessageAt: epochMs(ticket.lastMessageAt),
    lastMessageReceived: epochMs(ticket.lastMessageReceivedAt),
    updatedAt: ticket.updatedAt.toISOString(),
    createdAt: ticket.createdAt.toISOString(),
    protocol: ticket.protocol,
    kanban: contact.kanban,
    tags: contact.tags,
    contact,
    chatFlowId: ticket.chatFlowId,
    stepChatFlow: ticket.stepChatFlow,
    autoReplyId: ticket.autoReplyId,
    stepAutoReplyId: ticket.stepAutoReplyId,
    isTransference: ticket.isTransference,
    isFarewellMessage: ticket.isFarewellMessage,
    // Scheduled messages arrive with message scheduling.
    scheduledMessages: [],
    reasons: ticket.reasonId,
    value: ticket.value,
    closingAt: ticket.closingAt?.toISOString() ?? null,
    closedAt: ticket.closedAt?.toISOString() ?? null,
    campaign: ticket.campaignId !== null ? { id: ticket.campaignId, name: ticket.campaignName ?? '' } : null,
    ...integrations,
  };
}

/**
 * Ticket, contact with its tags and wallets, assignee name, queue name and channel: one row per ticket. `from` may
 * carry a CTE (the list's search); `total` is the list's bounded count, a column of every row of its page.
 */
export function selectJoined(from: Pick<Queryable, 'select'>, total: SQL<number> = sql<number>`0`) {
  return from
    .select({
      ticket: tickets,
      contact: contacts,
      ...contactSetColumns(),
      userName: users.name,
      queueName: queues.queue,
      channel: {
        id: channels.id,
        name: channels.name,
        type: channels.type,
        status: channels.status,
        sendEvaluation: channels.sendEvaluation,
      },
      total,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(channels, eq(channels.id, tickets.channelId));
}

export type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectJoined>['execute']>>[number];

/** A row of selectJoined as the wire's ticket. */
export const ticketDtoOf = (row: JoinedRow): TicketDto =>
  toTicketDto(row, toContactDto(row.contact, row.tags, row.wallets));

const selectMany = statement('tickets_dto', ['ids'], (q, p) => selectJoined(q).where(idIn(tickets.id, p.ids)));

/** Full DTOs of the given tickets, in the order of `ids` (ids not found are left out). */
export async function loadTicketDtos(tx: Queryable, ids: number[]): Promise<TicketDto[]> {
  if (ids.length === 0) return [];
  const rows = await selectMany(tx, { ids: idList(ids) });
  const byId = new Map(rows.map((row) => [row.ticket.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [ticketDtoOf(row)] : [];
  });
}

/**
 * One ticket's row: every action and every inbound message reads one. With a scalar id PostgreSQL keeps one generic
 * plan; the id-list form above is re-planned at each run (its generic plan is costed for an unknown number of ids),
 * about a millisecond under row-level security, which a page of tickets shares but a single ticket would not.
 */
const selectOne = statement('ticket_dto_one', ['id'], (q, p) => selectJoined(q).where(eq(tickets.id, p.id)));

/** The full §20.2 ticket, or null when it does not exist (in the transaction's tenant). */
export async function loadTicketDto(tx: Queryable, ticketId: number): Promise<TicketDto | null> {
  const [row] = await selectOne(tx, { id: ticketId });
  return row ? ticketDtoOf(row) : null;
}
