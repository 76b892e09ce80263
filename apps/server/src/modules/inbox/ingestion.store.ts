/**
 * Ingestion's storing steps, inside the channel's tenant transaction its caller (ingestion.service.ts) opened: a
 * message alone (`storeMessage`) or a lane's batch of customers' messages in set-based statements (`storeBatch`).
 * Each upserts the contacts, finds or creates the tickets, inserts the messages idempotently, enqueues their media
 * downloads, rating answers and the chatbot's jobs in the same transaction, and loads what is published after commit.
 */
import type { MessageEventDto, TicketDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { ChannelCredentials, InboundEvent, InboundParty } from '../channels/index.js';
import { upsertInboundContact, upsertInboundContacts, type InboundContactFacts } from '../contacts/index.js';
import {
  attachFullText,
  bodyOverflows,
  capBody,
  DOWNLOAD_MEDIA_JOB,
  loadMessageDto,
  loadMessageEventDtos,
  storeInboundMessage,
  storeInboundMessages,
  type FullTextFile,
  type MediaLinks,
} from '../messages/index.js';
import {
  findOrCreateActiveTicket,
  findOrCreateActiveTickets,
  loadTicketDto,
  loadTicketDtos,
  type ActiveTicketRequest,
} from '../tickets/index.js';
import { RATING_ANSWER_JOB } from '../evaluations/index.js';
import type { CampaignIngestionHook } from '../campaigns/index.js';
import type { ChatbotIngestionHook } from '../chatbot/index.js';
import { requestContactAvatars } from './ingestion.avatars.js';

/** What the storing steps use of ingestion's deps. */
export interface StoreDeps {
  jobs: JobQueue;
  links: MediaLinks;
  chatbot?: ChatbotIngestionHook;
  campaigns?: CampaignIngestionHook;
}

export type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;
/** `quiet`: a new ticket whose announcement waits for the chatbot's routing (no `notify` now). */
export type Stored = { message: MessageEventDto; ticket: TicketDto | null; ticketCreated: boolean; quiet: boolean };
/** What storing an imported message (a login's history, ingestion.import.ts) tells: nothing is announced. */
export type StoredImport = { imported: true; timestamp: number; ticketId: number; created: boolean };
/** What a batch stored: its messages in order, and each ticket they touched once, as of the commit. */
export type StoredBatch = {
  messages: MessageEventDto[];
  tickets: { ticket: TicketDto; created: boolean; quiet: boolean }[];
};

/**
 * Stored in a batch: a customer's message of a private chat (group and phone-written messages go one by one, and so
 * do imported ones and texts past the cap, whose whole text becomes a file).
 */
export const batchable = (event: MessageEvent): boolean =>
  !event.fromMe && !event.party.isGroup && !event.imported && !bodyOverflows(event.body);

/** Thrown inside the transaction to roll back a ticket made for a message another transaction stored first. */
export class DuplicateMessage extends Error {}

export const chatFacts = (party: InboundParty): InboundContactFacts => ({
  id: party.chatId,
  idField: party.idField,
  name: party.name,
  number: party.number,
  isGroup: party.isGroup,
  // Only what the provider told: a party without a picture leaves the stored one (ours, contacts.avatars.ts) alone.
  ...(party.profilePicUrl !== undefined ? { profilePicUrl: party.profilePicUrl } : {}),
});

function participantFacts(party: InboundParty): InboundContactFacts | null {
  const p = party.isGroup ? party.participant : null;
  return p ? { id: p.id, idField: p.idField, name: p.name, number: p.number, isGroup: false } : null;
}

/** The text a ticket list row shows for a message. */
const preview = (event: MessageEvent): string => capBody(event.body) || event.media?.name || event.mediaType;

/** What a message event stores as given, alone or in a batch (the body cut at the cap: messages.body-cap.ts). */
const messageFields = (event: MessageEvent) => ({
  providerMessageId: event.providerMessageId,
  body: capBody(event.body),
  mediaType: event.mediaType,
  media: event.media,
  isSticker: event.isSticker ?? false,
  meta: event.meta ?? null,
  quotedProviderMessageId: event.quotedProviderMessageId,
  timestamp: event.timestamp,
});

/** A customer's new ticket on the channel: pending, routed by the channel's queue and user. */
function ticketBase(channel: ChannelCredentials, isGroup: boolean): Omit<ActiveTicketRequest, 'contactId'> {
  return {
    channelId: channel.id,
    channelType: channel.type,
    isGroup,
    status: 'pending',
    userId: channel.routing.userId,
    queueId: channel.routing.queueId,
    actorUserId: null,
  };
}

/** Null when nothing is stored: a blocked contact (nothing of theirs is kept), an unusable id, or a replay. */
export async function storeMessage(
  deps: StoreDeps,
  tx: Tx,
  channel: ChannelCredentials,
  event: MessageEvent,
  fullText: FullTextFile | null,
): Promise<Stored | StoredImport | null> {
  const tenantId = channel.tenantId as TenantId;
  // A replay meets the stored message at the insert below and rolls back (no separate look-up first).
  const chat = await upsertInboundContact(tx, tenantId, chatFacts(event.party));
  if (!chat || chat.blocked) return null;
  const senderFacts = participantFacts(event.party);
  const sender = senderFacts ? await upsertInboundContact(tx, tenantId, senderFacts) : null;
  if (sender?.blocked) return null;
  // Session channels: the pictures of new contacts (and of those last asked a day ago) are asked for.
  await requestContactAvatars(tx, deps.jobs, tenantId, channel, [chat, sender]);
  const base = ticketBase(channel, event.party.isGroup);
  // Imported history opens its new tickets in the import's queue when the channel names one.
  if (event.imported) base.queueId = channel.historyImport?.queueId ?? base.queueId;
  const { ticket, created } = await findOrCreateActiveTicket(tx, tenantId, { ...base, contactId: chat.id });
  // Messages written on the phone itself (fromMe echoes) answer the ticket instead of waiting for an answer.
  const row = await storeInboundMessage(
    tx,
    {
      tenantId,
      ticketId: ticket.id,
      contactId: chat.id,
      channelId: channel.id,
      senderContactId: sender?.id ?? null,
      fromMe: event.fromMe,
      ...messageFields(event),
      ...(event.imported ? { imported: true } : {}),
    },
    preview(event),
  );
  if (!row) throw new DuplicateMessage();
  // A text past the cap: its whole text, stored before this transaction, becomes the message's file.
  const message = fullText ? await attachFullText(tx, row.id, fullText) : row;
  if (event.media) {
    await deps.jobs.enqueue(DOWNLOAD_MEDIA_JOB, { tenantId, messageId: row.id }, { tx });
  }
  // A ticket waiting for a rating hands the customer's message to the ratings (the flag came with the row: no look-up).
  if (ticket.awaitingRating && !event.fromMe && !event.imported) {
    await deps.jobs.enqueue(RATING_ANSWER_JOB, { tenantId, ticketId: ticket.id }, { tx });
  }
  if (event.imported) return { imported: true, timestamp: event.timestamp, ticketId: ticket.id, created };
  // A customer's message of a private chat: a campaign's answer or opt-out, then maybe the chatbot (a new ticket's
  // routing, an answer, the absence).
  if (!event.fromMe && !event.party.isGroup) {
    await deps.campaigns?.afterStore(tx, tenantId, [{ ticket, created, channelId: channel.id, body: event.body }]);
  }
  const quiet =
    !event.fromMe && !event.party.isGroup && deps.chatbot
      ? await deps.chatbot.afterStore(tx, tenantId, [{ ticket, created, messageId: row.id, channelId: channel.id }])
      : null;
  const dto = await loadTicketDto(tx, ticket.id);
  return {
    message: await loadMessageDto(tx, message, deps.links, dto),
    ticket: dto,
    ticketCreated: created,
    quiet: quiet?.has(ticket.id) ?? false,
  };
}

/**
 * The batch's messages in one transaction: contacts, tickets, messages (with their tickets' touch) and media jobs
 * each one statement for all. Blocked contacts, unusable ids and replays store nothing and are left out.
 */
export async function storeBatch(
  deps: StoreDeps,
  tx: Tx,
  channel: ChannelCredentials,
  events: MessageEvent[],
): Promise<StoredBatch> {
  const tenantId = channel.tenantId as TenantId;
  const contacts = await upsertInboundContacts(
    tx,
    tenantId,
    events.map((event) => chatFacts(event.party)),
  );
  const kept = events.flatMap((event, i) => {
    const contact = contacts[i];
    return contact && !contact.blocked ? [{ event, contactId: contact.id }] : [];
  });
  if (kept.length === 0) return { messages: [], tickets: [] };
  await requestContactAvatars(tx, deps.jobs, tenantId, channel, contacts);
  const tickets = await findOrCreateActiveTickets(
    tx,
    tenantId,
    ticketBase(channel, false),
    kept.map(({ contactId }) => contactId),
  );
  const rows = await storeInboundMessages(
    tx,
    tenantId,
    channel.id,
    kept.map(({ event, contactId }) => ({
      ticketId: tickets.get(contactId)!.ticket.id,
      contactId,
      ...messageFields(event),
      lastMessage: preview(event),
    })),
  );
  const touched = new Set(rows.map((row) => row.ticketId));
  // A ticket made for messages that all turned out stored already (replays racing their originals) must not stay.
  const made = [...tickets.values()].filter((t) => t.created).map((t) => t.ticket.id);
  if (made.some((id) => !touched.has(id))) throw new DuplicateMessage();
  await deps.jobs.enqueueMany(
    DOWNLOAD_MEDIA_JOB,
    rows.filter((row) => row.mediaStatus === 'pending').map((row) => ({ tenantId, messageId: row.id })),
    { tx },
  );
  const rating = [...tickets.values()].filter((t) => t.ticket.awaitingRating && touched.has(t.ticket.id));
  await deps.jobs.enqueueMany(
    RATING_ANSWER_JOB,
    rating.map((t) => ({ tenantId, ticketId: t.ticket.id })),
    { tx },
  );
  const byId = new Map([...tickets.values()].map((t) => [t.ticket.id, t]));
  await deps.campaigns?.afterStore(
    tx,
    tenantId,
    rows.map((row) => ({ ...byId.get(row.ticketId)!, channelId: channel.id, body: row.body ?? '' })),
  );
  const quiet = deps.chatbot
    ? await deps.chatbot.afterStore(
        tx,
        tenantId,
        rows.map((row) => ({ ...byId.get(row.ticketId)!, messageId: row.id, channelId: channel.id })),
      )
    : new Set<number>();
  const dtos = await loadTicketDtos(tx, [...touched]);
  const created = new Set(made);
  return {
    messages: await loadMessageEventDtos(tx, rows, deps.links, dtos),
    tickets: dtos.map((ticket) => ({ ticket, created: created.has(ticket.id), quiet: quiet.has(ticket.id) })),
  };
}
