/**
 * Webhook intake: resolve the channel named in the path (the one cross-tenant read, system path
 * `channels.webhook-lookup`), verify the provider's secret, parse, and hand each event to the inbound sink inside
 * the request. The provider gets its 2xx only after every event is stored, so a crash loses nothing: it resends,
 * and the resend is a no-op duplicate (idempotency lives in the messages table).
 */
import { ZodError } from 'zod';
import type { Database } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { systemContext, withSystem } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import type { ErrorCode } from '@conversa/shared';
import type {
  BodySignature,
  ChannelAdapter,
  ChannelCredentials,
  InboundEvent,
  WebhookRequest,
} from './channels.adapter.js';
import { toCredentials } from './channels.dto.js';
import type { AdapterRegistry } from './channels.registry.js';
import './channels.events.js';
import { findChannelById, type ChannelRow } from './channels.repository.js';
import type { SessionsService } from './channels.sessions.js';
import { GATEWAY_CHANNEL_TYPES } from './sessions/session-adapter.js';

const isGateway = (type: string) => (GATEWAY_CHANNEL_TYPES as readonly string[]).includes(type);

/**
 * Whether an authenticated webhook of this channel is stored; otherwise it is acknowledged (200, `ignored`) and
 * dropped. A switched-off channel stores nothing. What "disconnected" means differs:
 * - a gateway (Evolution, Wuzapi) holds the WhatsApp session itself and reconnects on its own, so its DISCONNECTED
 *   is only the session's last reported state: the webhook is stored as long as the channel holds its claim
 *   (`providerKey`, written by a start the gateway accepted, kept through the gateway's own disconnections, released
 *   by the user's disconnect, a failed start or an identity edit: channels.identity.ts). The messages of a
 *   reconnection, and the states that follow it, are not lost;
 * - any other channel is disconnected when its status says so: what is still in flight is dropped.
 */
function stores(row: ChannelRow): boolean {
  if (!row.isActive) return false;
  return isGateway(row.type) ? row.providerKey !== null : row.status !== 'DISCONNECTED';
}

/**
 * Stores one inbound event of a channel (contact upsert, ticket find-or-create, message insert, follow-up jobs) in
 * one transaction of the channel's tenant, and publishes after commit. Implemented by the conversation modules and
 * registered with `setInboundSink`.
 */
export interface InboundSink {
  receive(
    channel: ChannelCredentials,
    event: Exclude<InboundEvent, { kind: 'session' | 'session-sync' | 'battery' }>,
  ): Promise<void>;
}

/** Keyed by the app's platform object, so every app instance (tests build several) has its own sink. */
const sinks = new WeakMap<object, InboundSink>();

export function setInboundSink(platform: object, sink: InboundSink): void {
  sinks.set(platform, sink);
}

/** The app's sink (stateful sessions hand their conversation events to it, as webhooks do). */
export function inboundSinkOf(platform: object): InboundSink | undefined {
  return sinks.get(platform);
}

export interface IntakeResult {
  received: number;
  /** True when the channel does not store this webhook (see `stores`): acknowledged so the provider stops resending. */
  ignored: boolean;
}

/**
 * How long a webhook reuses the channel row it read (secret, tenant, state, routing). A busy channel sends many
 * updates per second and each read is a transaction of its own (three round trips); changes made on this process
 * drop the row at once (the channels events), changes made on another process are seen within this time.
 */
export const WEBHOOK_CHANNEL_TTL_MS = 5_000;

export function createWebhookIntake(deps: {
  db: Database;
  events: EventBus;
  registry: AdapterRegistry;
  sessions: SessionsService;
  platform: object;
}) {
  const { db, registry, sessions } = deps;
  const channelRows = new Map<number, { row: ChannelRow; until: number }>();
  /**
   * The read in flight per channel: the webhooks that find no fresh row share it (a burst after the row expired made
   * one read, a transaction, per webhook). A change that drops the row drops the read too, so the next webhook reads
   * again instead of taking a row read before the change.
   */
  const reads = new Map<number, Promise<ChannelRow | undefined>>();
  const drop = (channelId: number) => {
    channelRows.delete(channelId);
    reads.delete(channelId);
  };
  deps.events.subscribe('channels.changed', ({ channel }) => drop(channel.id));
  deps.events.subscribe('channels.deleted', ({ channelId }) => drop(channelId));
  deps.events.subscribe('channels.session_changed', ({ session }) => drop(session.id));

  function readChannel(channelId: number): Promise<ChannelRow | undefined> {
    const kept = channelRows.get(channelId);
    if (kept && kept.until > Date.now()) return Promise.resolve(kept.row);
    const inFlight = reads.get(channelId);
    if (inFlight) return inFlight;
    const read = withSystem(db, 'channels.webhook-lookup', (tx) => findChannelById(tx, channelId)).then(
      (row) => {
        // A change dropped this read while it ran: its row may be the old one, so it is not kept.
        if (reads.get(channelId) !== read) return row;
        reads.delete(channelId);
        if (row) channelRows.set(channelId, { row, until: Date.now() + WEBHOOK_CHANNEL_TTL_MS });
        else channelRows.delete(channelId);
        return row;
      },
      (error: unknown) => {
        if (reads.get(channelId) === read) reads.delete(channelId);
        throw error;
      },
    );
    reads.set(channelId, read);
    return read;
  }

  /**
   * The adapter and channel of a webhook path. A webhook POST answers an unknown id (or another type's channel)
   * exactly as a refused credential, ERR_WEBHOOK_UNAUTHORIZED: the public URL tells nobody which ids exist.
   */
  async function resolve(provider: string, channelId: number, missing: ErrorCode = 'ERR_WEBHOOK_UNAUTHORIZED') {
    const adapter = registry.forProvider(provider);
    const row = adapter ? await readChannel(channelId) : null;
    if (!adapter || !row || row.type !== adapter.type) throw fail(missing);
    return { adapter, row };
  }

  function parse(adapter: ChannelAdapter, row: ChannelRow, body: unknown): InboundEvent[] {
    try {
      return adapter.parseInbound(toCredentials(row), body);
    } catch (error) {
      if (error instanceof ZodError) throw fail('ERR_VALIDATION', 'body');
      throw error;
    }
  }

  return {
    /**
     * A gateway webhook before its body is read (GATEWAY_CHANNEL_TYPES): the channel exists, is the provider's and
     * the request carries its header secret, or else its body signature, returned to be computed while the body
     * streams (null: nothing left to check before the body). Anything else throws ERR_WEBHOOK_UNAUTHORIZED, the
     * same for an unknown id, so no unauthenticated request ever gets the gateways' large body limit.
     */
    async preAuthenticate(
      provider: string,
      channelId: number,
      headers: WebhookRequest['headers'],
    ): Promise<BodySignature | null> {
      const { adapter, row } = await resolve(provider, channelId);
      const channel = toCredentials(row);
      if (adapter.verifyHeaders) {
        if (!adapter.verifyHeaders(channel, headers)) throw fail('ERR_WEBHOOK_UNAUTHORIZED');
        return null;
      }
      const signature = adapter.bodySignature?.(channel, headers) ?? null;
      if (!signature) throw fail('ERR_WEBHOOK_UNAUTHORIZED');
      return signature;
    },
    /** The channel of a webhook path, when it exists and is the provider's (Meta's verification GET reads it). */
    channel: (provider: string, channelId: number) => resolve(provider, channelId, 'ERR_NO_WAPP_FOUND'),
    parse,
    async receive(provider: string, channelId: number, request: WebhookRequest): Promise<IntakeResult> {
      const { adapter, row } = await resolve(provider, channelId);
      if (!adapter.verifyInbound(toCredentials(row), request)) throw fail('ERR_WEBHOOK_UNAUTHORIZED');
      return deliver(adapter, row, parse(adapter, row, request.body));
    },
    deliver,
  };

  /** The adapter's enrichment (profile names, pictures) is a nicety: when it fails, the events go as parsed. */
  async function enrich(adapter: ChannelAdapter, channel: ChannelCredentials, parsed: InboundEvent[]) {
    if (!adapter.enrichInbound || parsed.length === 0) return parsed;
    try {
      return await adapter.enrichInbound(channel, parsed);
    } catch {
      return parsed;
    }
  }

  /**
   * Stores the parsed (and verified) events of one channel: session events to the sessions service, the rest to the
   * inbound sink, after the adapter's optional enrichment.
   */
  async function deliver(adapter: ChannelAdapter, row: ChannelRow, parsed: InboundEvent[]): Promise<IntakeResult> {
    if (!stores(row)) return { received: 0, ignored: true };
    const channel = toCredentials(row);
    const events = await enrich(adapter, channel, parsed);
    const ctx = systemContext(row.tenantId);
    for (const event of events) {
      if (event.kind === 'session' || event.kind === 'session-sync' || event.kind === 'battery') {
        await sessions.applySideEvent(ctx, row.id, event);
        continue;
      }
      const sink = sinks.get(deps.platform);
      // Without a sink nothing could be stored: a 503 makes the provider resend later instead of losing it.
      if (!sink) throw fail('ERR_SERVICE_UNAVAILABLE');
      await sink.receive(channel, event);
    }
    return { received: events.length, ignored: false };
  }
}

export type WebhookIntake = ReturnType<typeof createWebhookIntake>;
