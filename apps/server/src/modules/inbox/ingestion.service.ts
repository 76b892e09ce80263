/**
 * Ingestion (ARCHITECTURE §6b): the one path for a channel's normalised events. Under the channel's tenant: upsert the
 * contact, find-or-create the ticket, insert the message idempotently and enqueue its media download in the same
 * transaction; domain events are published only after commit. The webhook answers the provider after `ingest`
 * resolves, so a crash loses nothing: the provider retries and a replay is a no-op.
 *
 * Messages go through lanes (`ingestion.lanes.ts`, a chat always in the same lane of its channel): one that finds its
 * lane idle is stored alone; those that arrive while it is busy are stored together in one transaction of set-based
 * statements (a statement per step for the whole batch instead of per message). A batch that fails for any reason
 * (a concurrent duplicate, a deadlock with another node) is rolled back and its messages stored one by one.
 */
import type { MessageEventDto, TicketDto } from '@conversa/shared';
import type { Logger } from 'pino';
import type { Database, Tx } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { systemContext, withTenant, type TenantId } from '../../platform/db/tenancy.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { ChannelCredentials, InboundEvent, InboundParty } from '../channels/index.js';
import {
  applyInboundContactUpdate,
  findInboundContactId,
  upsertInboundContact,
  upsertInboundContacts,
  type InboundContactFacts,
} from '../contacts/index.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import {
  applyInboundAck,
  applyInboundDelete,
  applyInboundEdit,
  applyInboundReaction,
  applyInboundReadUpTo,
  applyInboundSendFailure,
  attachFullText,
  bodyOverflows,
  capBody,
  discardFullText,
  DOWNLOAD_MEDIA_JOB,
  storeFullText,
  type FullTextFile,
  loadMessageDto,
  loadMessageEventDtos,
  publishMessage,
  storeInboundMessage,
  storeInboundMessages,
  type MediaLinks,
  type MessageChange,
  type MessageRow,
} from '../messages/index.js';
import {
  findOrCreateActiveTicket,
  findOrCreateActiveTickets,
  loadTicketDto,
  loadTicketDtos,
  type ActiveTicketRequest,
} from '../tickets/index.js';
import { RATING_ANSWER_JOB } from '../evaluations/index.js';
import type { ChatbotIngestionHook } from '../chatbot/index.js';
import { requestContactAvatars } from './ingestion.avatars.js';
import { createImportTracker } from './ingestion.import.js';
import { createLanes, laneOf } from './ingestion.lanes.js';

/** Lanes per channel by default: the pool has 10 connections, and other requests need theirs. */
const LANES_PER_CHANNEL = 2;
/**
 * Messages stored together at most: a batch is one transaction, and a failed one is redone message by message. On
 * PostgreSQL caps of 20 and 50 measured alike in the ingestion bench (752-763 against 709-826 messages/s).
 */
const MAX_BATCH = 20;

export interface IngestionDeps {
  db: Database;
  jobs: JobQueue;
  events: EventBus;
  links: MediaLinks;
  /** Where the whole text of a message past MESSAGE_BODY_MAX_LENGTH goes (messages.body-cap.ts). */
  store: MediaStore;
  /** Lanes per channel (default 2): at most this many of a channel's transactions in flight. */
  lanesPerChannel?: number;
  /** Told why a batch was rolled back (its messages are then stored one by one). */
  logger?: Pick<Logger, 'warn'>;
  /** A login-history import with no batch for this long has ended (IMPORT_QUIET_END_MS). */
  importQuietMs?: number;
  /** The chatbot's hook: enqueues `chatbot.inbound` for customers' messages that need the engine (absent: none). */
  chatbot?: ChatbotIngestionHook;
}

/** What the batches did since start (tests, diagnostics). */
export interface IngestionStats {
  /** Batches stored in one transaction, and the messages they held. */
  batches: number;
  batchedMessages: number;
  /** Batches rolled back and stored message by message. */
  fallbacks: number;
}

export interface Ingestion {
  ingest(channel: ChannelCredentials, events: InboundEvent[]): Promise<void>;
  stats(): IngestionStats;
}

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;
/** `quiet`: a new ticket whose announcement waits for the chatbot's routing (no `notify` now). */
type Stored = { message: MessageEventDto; ticket: TicketDto | null; ticketCreated: boolean; quiet: boolean };
/** What storing an imported message (a login's history, ingestion.import.ts) tells: nothing is announced. */
type StoredImport = { imported: true; timestamp: number; ticketId: number; created: boolean };
type Queued = { channel: ChannelCredentials; event: MessageEvent };
/** What a batch stored: its messages in order, and each ticket they touched once, as of the commit. */
type StoredBatch = {
  messages: MessageEventDto[];
  tickets: { ticket: TicketDto; created: boolean; quiet: boolean }[];
};

/**
 * Stored in a batch: a customer's message of a private chat (group and phone-written messages go one by one, and so
 * do imported ones and texts past the cap, whose whole text becomes a file).
 */
const batchable = (event: MessageEvent): boolean =>
  !event.fromMe && !event.party.isGroup && !event.imported && !bodyOverflows(event.body);

/** Thrown inside the transaction to roll back a ticket made for a message another transaction stored first. */
class DuplicateMessage extends Error {}

const chatFacts = (party: InboundParty): InboundContactFacts => ({
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

export function createIngestion(deps: IngestionDeps): Ingestion {
  const imports = createImportTracker({
    db: deps.db,
    events: deps.events,
    logger: deps.logger,
    ...(deps.importQuietMs ? { quietMs: deps.importQuietMs } : {}),
  });

  /** Null when nothing is stored: a blocked contact (nothing of theirs is kept), an unusable id, or a replay. */
  async function storeMessage(
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
    // A customer's message of a private chat may need the chatbot (a new ticket's routing, an answer, the absence).
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
  async function storeBatch(tx: Tx, channel: ChannelCredentials, events: MessageEvent[]): Promise<StoredBatch> {
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

  function publishBatch(tenantId: number, stored: StoredBatch): void {
    for (const message of stored.messages) publishMessage(deps.events, tenantId, 'chat:create', message);
    for (const { ticket, created, quiet } of stored.tickets) {
      deps.events.publish('tickets.changed', {
        tenantId,
        type: created ? 'ticket:create' : 'ticket:update',
        ticket,
        ...(created && !quiet ? { notify: true } : {}),
      });
    }
  }

  /** One by one, in order: each message's own outcome. */
  async function ingestEach(items: Queued[]): Promise<PromiseSettledResult<void>[]> {
    const results: PromiseSettledResult<void>[] = [];
    for (const { channel, event } of items) {
      try {
        await ingestMessageAlone(channel, event);
        results.push({ status: 'fulfilled', value: undefined });
      } catch (reason) {
        results.push({ status: 'rejected', reason });
      }
    }
    return results;
  }

  async function runLane(_lane: string, items: Queued[]): Promise<PromiseSettledResult<void>[]> {
    const batched = items.filter((item) => batchable(item.event));
    if (batched.length < 2) return ingestEach(items);
    const channel = batched[0]!.channel;
    const results = new Map<Queued, PromiseSettledResult<void>>();
    try {
      const stored = await withTenant(deps.db, systemContext(channel.tenantId), (tx) =>
        storeBatch(
          tx,
          channel,
          batched.map((item) => item.event),
        ),
      );
      publishBatch(channel.tenantId, stored);
      stats.batches += 1;
      stats.batchedMessages += batched.length;
      for (const item of batched) results.set(item, { status: 'fulfilled', value: undefined });
    } catch (error) {
      stats.fallbacks += 1;
      deps.logger?.warn({ err: error, size: batched.length }, 'ingestion batch rolled back, storing one by one');
      // Rolled back: each message on its own, so one cause (a duplicate, a deadlock) fails only its own message.
      const each = await ingestEach(batched);
      batched.forEach((item, i) => results.set(item, each[i]!));
    }
    const rest = items.filter((item) => !results.has(item));
    const restResults = await ingestEach(rest);
    rest.forEach((item, i) => results.set(item, restResults[i]!));
    return items.map((item) => results.get(item)!);
  }

  const stats: IngestionStats = { batches: 0, batchedMessages: 0, fallbacks: 0 };
  const lanes = createLanes<Queued>(runLane, MAX_BATCH);
  const laneCount = deps.lanesPerChannel ?? LANES_PER_CHANNEL;

  function ingestMessage(channel: ChannelCredentials, event: MessageEvent): Promise<void> {
    return lanes.push(`${channel.id}:${laneOf(event.party.chatId, laneCount)}`, { channel, event });
  }

  /** The whole text of a body past the cap, stored as a file: only a text message has its media slot free. */
  async function overflowOf(channel: ChannelCredentials, event: MessageEvent): Promise<FullTextFile | null> {
    if (!bodyOverflows(event.body)) return null;
    if (event.media) {
      deps.logger?.warn({ channelId: channel.id, length: event.body.length }, 'caption past the body cap stored cut');
      return null;
    }
    return storeFullText(deps.store, channel.tenantId, event.body);
  }

  async function ingestMessageAlone(channel: ChannelCredentials, event: MessageEvent): Promise<void> {
    let stored: Stored | StoredImport | null;
    const fullText = await overflowOf(channel, event);
    try {
      stored = await withTenant(deps.db, systemContext(channel.tenantId), (tx) =>
        storeMessage(tx, channel, event, fullText),
      );
    } catch (error) {
      if (!(error instanceof DuplicateMessage)) {
        await discardFullText(deps.store, fullText);
        throw error;
      }
      stored = null;
    }
    // Nothing stored (a replay, a blocked contact): nor is the file.
    if (!stored) await discardFullText(deps.store, fullText);
    // Imported history is counted for the import's progress and announced by nobody.
    if (event.imported) return imports.handled(channel, stored && 'imported' in stored ? stored : null);
    if (!stored || 'imported' in stored) return;
    publishMessage(deps.events, channel.tenantId, 'chat:create', stored.message);
    if (stored.ticket) {
      deps.events.publish('tickets.changed', {
        tenantId: channel.tenantId,
        type: stored.ticketCreated ? 'ticket:create' : 'ticket:update',
        ticket: stored.ticket,
        ...(stored.ticketCreated && !stored.quiet ? { notify: true } : {}),
      });
    }
  }

  /** Runs one change of a stored message and publishes it after commit when something changed. */
  async function change(
    channel: ChannelCredentials,
    type: MessageChange,
    apply: (tx: Tx) => Promise<MessageRow | null>,
  ): Promise<void> {
    const dto = await withTenant(deps.db, systemContext(channel.tenantId), async (tx) => {
      const row = await apply(tx);
      return row && loadMessageDto(tx, row, deps.links);
    });
    if (dto) publishMessage(deps.events, channel.tenantId, type, dto);
  }

  /** A read receipt without a message id: each message it marks read is announced (chat:ack). */
  async function readUpTo(channel: ChannelCredentials, party: InboundParty, watermark: number): Promise<void> {
    const tenantId = channel.tenantId as TenantId;
    const dtos = await withTenant(deps.db, systemContext(tenantId), async (tx) => {
      const contactId = await findInboundContactId(tx, tenantId, chatFacts(party));
      if (contactId === null) return [];
      const rows = await applyInboundReadUpTo(tx, channel.id, contactId, watermark);
      return Promise.all(rows.map((row) => loadMessageDto(tx, row, deps.links)));
    });
    for (const dto of dtos) publishMessage(deps.events, tenantId, 'chat:ack', dto);
  }

  async function updateContact(channel: ChannelCredentials, party: InboundParty): Promise<void> {
    const tenantId = channel.tenantId as TenantId;
    const contact = await withTenant(deps.db, systemContext(tenantId), (tx) =>
      applyInboundContactUpdate(tx, tenantId, chatFacts(party)),
    );
    if (contact) deps.events.publish('contacts.updated', { tenantId, contact });
  }

  async function ingestOne(channel: ChannelCredentials, event: InboundEvent): Promise<void> {
    const at = (timestamp: number) => new Date(timestamp);
    switch (event.kind) {
      case 'message':
        return ingestMessage(channel, event);
      case 'ack':
        return change(channel, 'chat:ack', (tx) =>
          applyInboundAck(tx, channel.id, event.providerMessageId, event.ack, event.pricing, event.alias),
        );
      case 'send-failed':
        return change(channel, 'chat:update', (tx) =>
          applyInboundSendFailure(tx, channel.id, event.providerMessageId, event.error, event.alias),
        );
      case 'read-up-to':
        return readUpTo(channel, event.party, event.watermark);
      case 'edit':
        return change(channel, 'chat:update', (tx) =>
          applyInboundEdit(tx, channel.id, event.providerMessageId, capBody(event.body), at(event.timestamp)),
        );
      case 'delete':
        return change(channel, 'chat:delete', (tx) =>
          applyInboundDelete(tx, channel.id, event.providerMessageId, at(event.timestamp)),
        );
      case 'reaction':
        return change(channel, 'chat:update', (tx) =>
          applyInboundReaction(tx, channel.id, event.providerMessageId, event.reaction),
        );
      case 'contact':
        return updateContact(channel, event.party);
      case 'history-import':
        return imports.announce(channel, event.total, event.done);
      case 'session':
        // Session state (QR codes, connect/disconnect) belongs to the channels module; Telegram never emits it.
        return;
    }
  }

  return {
    async ingest(channel, events) {
      // In order: an edit or ack in the same webhook call refers to a message stored by an earlier event.
      for (const event of events) await ingestOne(channel, event);
    },
    stats: () => ({ ...stats }),
  };
}
