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
 *
 * The pipeline's steps are module-level functions taking the ingestion's state (a reader and a profiler see each):
 * `ingestEvents` -> `ingestEvent` (by kind) -> `queueMessage` (its lane) -> `runLane` -> `storeBatch` and
 * `publishBatch`, or `ingestEach` -> `ingestMessageAlone` (`storeOverflow`, `storeMessage`, `publishStored`). The
 * storing steps are in ingestion.store.ts, the changes of stored messages and contacts in ingestion.changes.ts.
 */
import type { Logger } from 'pino';
import type { Database } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { ChannelCredentials, InboundEvent } from '../channels/index.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import {
  applyInboundAck,
  applyInboundDelete,
  applyInboundEdit,
  applyInboundReaction,
  applyInboundSendFailure,
  bodyOverflows,
  capBody,
  discardFullText,
  publishMessage,
  storeFullText,
  type FullTextFile,
  type MediaLinks,
} from '../messages/index.js';
import type { CampaignIngestionHook } from '../campaigns/index.js';
import type { ChatbotIngestionHook } from '../chatbot/index.js';
import { applyChange, readUpTo, updateContact } from './ingestion.changes.js';
import { createImportTracker } from './ingestion.import.js';
import { createLanes, laneOf, type Lanes } from './ingestion.lanes.js';
import {
  batchable,
  DuplicateMessage,
  storeBatch,
  storeMessage,
  type MessageEvent,
  type Stored,
  type StoredBatch,
  type StoredImport,
} from './ingestion.store.js';

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
  /** The campaigns' hook: answers to a campaign take its queue, stop words opt out (absent: none). */
  campaigns?: CampaignIngestionHook;
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

type Queued = { channel: ChannelCredentials; event: MessageEvent };

/** What one ingestion keeps between calls: its deps, the login-history imports, the batch counts and the lanes. */
interface IngestionState {
  readonly deps: IngestionDeps;
  readonly imports: ReturnType<typeof createImportTracker>;
  readonly stats: IngestionStats;
  readonly lanes: Lanes<Queued>;
  readonly laneCount: number;
}

/** Wires the steps below to one set of deps; the lanes run `runLane`. */
export function createIngestion(deps: IngestionDeps): Ingestion {
  const stats: IngestionStats = { batches: 0, batchedMessages: 0, fallbacks: 0 };
  const state: IngestionState = {
    deps,
    imports: createImportTracker({
      db: deps.db,
      events: deps.events,
      logger: deps.logger,
      ...(deps.importQuietMs ? { quietMs: deps.importQuietMs } : {}),
    }),
    stats,
    lanes: createLanes<Queued>((_lane, items) => runLane(state, items), MAX_BATCH),
    laneCount: deps.lanesPerChannel ?? LANES_PER_CHANNEL,
  };
  return {
    ingest: (channel, events) => ingestEvents(state, channel, events),
    stats: () => ({ ...stats }),
  };
}

/** A webhook call's events, in order: an edit or ack in the same call refers to a message stored by an earlier one. */
async function ingestEvents(state: IngestionState, channel: ChannelCredentials, events: InboundEvent[]): Promise<void> {
  for (const event of events) await ingestEvent(state, channel, event);
}

const at = (timestamp: number) => new Date(timestamp);

/** One event, by kind: a message goes to its lane; the others change what is stored. */
async function ingestEvent(state: IngestionState, channel: ChannelCredentials, event: InboundEvent): Promise<void> {
  const { deps } = state;
  switch (event.kind) {
    case 'message':
      return queueMessage(state, channel, event);
    case 'ack':
      return applyChange(deps, channel, 'chat:ack', (tx) =>
        applyInboundAck(tx, channel.id, event.providerMessageId, event.ack, event.pricing, event.alias),
      );
    case 'send-failed':
      return applyChange(deps, channel, 'chat:update', (tx) =>
        applyInboundSendFailure(tx, channel.id, event.providerMessageId, event.error, event.alias),
      );
    case 'read-up-to':
      return readUpTo(deps, channel, event.party, event.watermark);
    case 'edit':
      return applyChange(deps, channel, 'chat:update', (tx) =>
        applyInboundEdit(tx, channel.id, event.providerMessageId, capBody(event.body), at(event.timestamp)),
      );
    case 'delete':
      return applyChange(deps, channel, 'chat:delete', (tx) =>
        applyInboundDelete(tx, channel.id, event.providerMessageId, at(event.timestamp)),
      );
    case 'reaction':
      return applyChange(deps, channel, 'chat:update', (tx) =>
        applyInboundReaction(tx, channel.id, event.providerMessageId, event.reaction),
      );
    case 'contact':
      return updateContact(deps, channel, event.party);
    case 'history-import':
      return state.imports.announce(channel, event.total, event.done);
    case 'session':
      // Session state (QR codes, connect/disconnect) belongs to the channels module; Telegram never emits it.
      return;
  }
}

/** A message joins its chat's lane; resolves when its batch (or its own transaction) committed. */
function queueMessage(state: IngestionState, channel: ChannelCredentials, event: MessageEvent): Promise<void> {
  return state.lanes.push(`${channel.id}:${laneOf(event.party.chatId, state.laneCount)}`, { channel, event });
}

/** A lane's turn: its batchable messages in one transaction when there are two or more, the others one by one. */
async function runLane(state: IngestionState, items: Queued[]): Promise<PromiseSettledResult<void>[]> {
  const { deps, stats } = state;
  const batched = items.filter((item) => batchable(item.event));
  if (batched.length < 2) return ingestEach(state, items);
  const channel = batched[0]!.channel;
  const results = new Map<Queued, PromiseSettledResult<void>>();
  try {
    const stored = await withTenant(deps.db, systemContext(channel.tenantId), (tx) =>
      storeBatch(
        deps,
        tx,
        channel,
        batched.map((item) => item.event),
      ),
    );
    publishBatch(deps, channel.tenantId, stored);
    stats.batches += 1;
    stats.batchedMessages += batched.length;
    for (const item of batched) results.set(item, { status: 'fulfilled', value: undefined });
  } catch (error) {
    stats.fallbacks += 1;
    deps.logger?.warn({ err: error, size: batched.length }, 'ingestion batch rolled back, storing one by one');
    // Rolled back: each message on its own, so one cause (a duplicate, a deadlock) fails only its own message.
    const each = await ingestEach(state, batched);
    batched.forEach((item, i) => results.set(item, each[i]!));
  }
  const rest = items.filter((item) => !results.has(item));
  const restResults = await ingestEach(state, rest);
  rest.forEach((item, i) => results.set(item, restResults[i]!));
  return items.map((item) => results.get(item)!);
}

/** After a batch's commit: each message (chat:create), then each ticket it touched once. */
function publishBatch(deps: IngestionDeps, tenantId: number, stored: StoredBatch): void {
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
async function ingestEach(state: IngestionState, items: Queued[]): Promise<PromiseSettledResult<void>[]> {
  const results: PromiseSettledResult<void>[] = [];
  for (const { channel, event } of items) {
    try {
      await ingestMessageAlone(state, channel, event);
      results.push({ status: 'fulfilled', value: undefined });
    } catch (reason) {
      results.push({ status: 'rejected', reason });
    }
  }
  return results;
}

/** The whole text of a body past the cap, stored as a file: only a text message has its media slot free. */
async function storeOverflow(
  deps: IngestionDeps,
  channel: ChannelCredentials,
  event: MessageEvent,
): Promise<FullTextFile | null> {
  if (!bodyOverflows(event.body)) return null;
  if (event.media) {
    deps.logger?.warn({ channelId: channel.id, length: event.body.length }, 'caption past the body cap stored cut');
    return null;
  }
  return storeFullText(deps.store, channel.tenantId, event.body);
}

/** A message in its own transaction, then its announcement (or, for imported history, the import's count). */
async function ingestMessageAlone(
  state: IngestionState,
  channel: ChannelCredentials,
  event: MessageEvent,
): Promise<void> {
  const { deps } = state;
  let stored: Stored | StoredImport | null;
  const fullText = await storeOverflow(deps, channel, event);
  try {
    stored = await withTenant(deps.db, systemContext(channel.tenantId), (tx) =>
      storeMessage(deps, tx, channel, event, fullText),
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
  if (event.imported) return state.imports.handled(channel, stored && 'imported' in stored ? stored : null);
  if (!stored || 'imported' in stored) return;
  publishStored(deps, channel.tenantId, stored);
}

/** After a message's commit: the message (chat:create), then its ticket. */
function publishStored(deps: IngestionDeps, tenantId: number, stored: Stored): void {
  publishMessage(deps.events, tenantId, 'chat:create', stored.message);
  if (stored.ticket) {
    deps.events.publish('tickets.changed', {
      tenantId,
      type: stored.ticketCreated ? 'ticket:create' : 'ticket:update',
      ticket: stored.ticket,
      ...(stored.ticketCreated && !stored.quiet ? { notify: true } : {}),
    });
  }
}
