/**
 * Channel sessions: connecting (for Telegram: check the token, register the webhook with the channel secret),
 * disconnecting, and state pushed by a provider. Provider calls run outside any transaction: a slow provider must
 * not hold a database connection (nor PGlite's single session).
 *
 * Stateful types (Baileys, whatsapp-web.js) are not connected here: a connect records the user's intent in
 * `channel_sessions` (wanted) and the session host of whichever node holds the lease opens the socket; its states
 * come back as session events. A new QR frees the lease (the owner drops the session, a node reopens it); a
 * disconnect clears `wanted` and the owner logs out.
 *
 * A start that the provider accepted claims the channel's provider id (channels.identity.ts); a failed start and a
 * disconnect release it. State a provider pushes later (a gateway's session closing) keeps it: the instance is
 * still this channel's until the user disconnects or edits it.
 */
import type { ChannelSessionState, ChannelStatus } from '@conversa/shared';
import type { Logger } from 'pino';
import type { Database } from '../../platform/db/client.js';
import { asTenantId, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import {
  ProviderError,
  type ChannelAdapter,
  type InboundEvent,
  type StartOptions,
  type StartResult,
} from './channels.adapter.js';
import { toChannelDto, toCredentials, toSessionState } from './channels.dto.js';
import { IDENTITY_RELEASE, isProviderKeyConflict, providerKeyOf, sameIdentity } from './channels.identity.js';
import type { AdapterRegistry } from './channels.registry.js';
import * as repo from './channels.repository.js';
import { assertGatewayIdentityFree, isSharedEvolutionGateway } from './channels.shared-gateway.js';
import { STATEFUL_CHANNEL_TYPES } from './sessions/session-adapter.js';
import type { SessionHost } from './sessions/session-host.js';
import { sessionQueueName } from './sessions/session-jobs.js';
import { saveIntent } from './sessions/session-lease.js';
import './channels.events.js';
import './sessions/session.events.js';

type SessionEvent = Extract<InboundEvent, { kind: 'session' }>;
type SessionSideEvent = Extract<InboundEvent, { kind: 'session' | 'session-sync' | 'battery' }>;

const isStateful = (type: string) => (STATEFUL_CHANNEL_TYPES as readonly string[]).includes(type);

/** `PUT /whatsappsession/{id}`: a new login attempt, with a pairing code for this number instead of a QR code. */
export interface RestartOptions {
  pairingNumber?: string | undefined;
}

export function createSessionsService(deps: {
  db: Database;
  events: EventBus;
  registry: AdapterRegistry;
  logger: Logger;
  publicUrl: string;
  jobs: JobQueue;
  /** Runs stateful sessions; late-bound (the host reports back to this service). */
  host: () => SessionHost | undefined;
}) {
  const { db, events, registry, logger } = deps;

  const webhookUrl = (row: repo.ChannelRow) => `${deps.publicUrl}/api/webhooks/${row.type}/${row.id}`;

  /** Writes the new state and tells the tenant's screens. */
  async function transition(ctx: TenantContext, id: number, patch: Partial<repo.ChannelValues>) {
    const row = await withTenant(db, ctx, (tx) => repo.updateChannel(tx, ctx.tenantId, id, patch));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    events.publish('channels.session_changed', { tenantId: ctx.tenantId, session: toSessionState(row) });
    events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toChannelDto(row, deps.publicUrl) });
    return row;
  }

  async function loadWithAdapter(ctx: TenantContext, id: number): Promise<[repo.ChannelRow, ChannelAdapter]> {
    const row = await withTenant(db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    const adapter = registry.forType(row.type);
    if (!adapter) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    return [row, adapter];
  }

  /** Records the intent and the channel's new state in one transaction, then wakes the local supervisor. */
  async function intend(
    ctx: TenantContext,
    row: repo.ChannelRow,
    intent: { wanted: boolean; pairingNumber?: string | null; restart?: boolean },
    status: ChannelStatus,
  ): Promise<ChannelSessionState> {
    if (intent.wanted) {
      if (!deps.host()?.driver(row.type)) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
      // Before the session row exists: sends are routed into this queue as soon as they see the row.
      await deps.jobs.ensureQueue(sessionQueueName(row.id));
    }
    const updated = await withTenant(db, ctx, async (tx) => {
      await saveIntent(tx, ctx.tenantId, row.id, intent);
      return repo.updateChannel(tx, ctx.tenantId, row.id, { status, qrcode: null, pairingCode: null });
    });
    if (!updated) throw fail('ERR_NO_WAPP_FOUND');
    events.publish('channels.session_changed', { tenantId: ctx.tenantId, session: toSessionState(updated) });
    events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toChannelDto(updated, deps.publicUrl) });
    deps.host()?.kick();
    return toSessionState(updated);
  }

  /**
   * Writes a start's outcome and its claim, unless an identity field was edited while the provider was asked (the
   * edit wins: it disconnected the channel, and the start proved the old values). A claim another channel holds is
   * refused by the unique index: the channel stays disconnected, 409 ERR_CHANNEL_IDENTITY_TAKEN.
   */
  async function settleStart(ctx: TenantContext, row: repo.ChannelRow, patch: Partial<repo.ChannelValues>) {
    let settled: repo.ChannelRow;
    try {
      settled = await withTenant(db, ctx, async (tx) => {
        const current = await repo.lockChannel(tx, ctx.tenantId, row.id);
        if (!current) throw fail('ERR_NO_WAPP_FOUND');
        if (!sameIdentity(row, current)) return current;
        return (await repo.updateChannel(tx, ctx.tenantId, row.id, patch))!;
      });
    } catch (error) {
      if (!isProviderKeyConflict(error)) throw error;
      logger.warn({ channelId: row.id, providerKey: patch.providerKey }, 'channel start refused: id claimed elsewhere');
      await transition(ctx, row.id, { ...IDENTITY_RELEASE, retries: row.retries + 1 });
      throw fail('ERR_CHANNEL_IDENTITY_TAKEN');
    }
    events.publish('channels.session_changed', { tenantId: ctx.tenantId, session: toSessionState(settled) });
    events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toChannelDto(settled, deps.publicUrl) });
    return settled;
  }

  async function loadStateful(ctx: TenantContext, id: number) {
    const row = await withTenant(db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    return isStateful(row.type) ? row : null;
  }

  return {
    /**
     * `PUT /whatsappsession/{id}`: stateful sessions start a new login attempt (a fresh QR code unless still logged
     * in, or a pairing code for the number given); other channels connect again.
     */
    async restartSession(ctx: TenantContext, id: number, options: RestartOptions = {}): Promise<ChannelSessionState> {
      const row = await loadStateful(ctx, id);
      if (!row) return this.startSession(ctx, id, { pairingNumber: options.pairingNumber ?? null });
      const pairingNumber = options.pairingNumber ?? null;
      return intend(ctx, row, { wanted: true, pairingNumber, restart: true }, 'OPENING');
    },

    async startSession(ctx: TenantContext, id: number, options: StartOptions = {}): Promise<ChannelSessionState> {
      const stateful = await loadStateful(ctx, id);
      if (stateful) {
        // Already running: a second connect changes nothing.
        if (stateful.status === 'CONNECTED') return toSessionState(stateful);
        return intend(ctx, stateful, { wanted: true, pairingNumber: null }, 'OPENING');
      }
      const [row, adapter] = await loadWithAdapter(ctx, id);
      if (row.type === 'telegram' && !row.tokenTelegram) throw fail('ERR_TELEGRAM_TOKEN_REQUIRED');
      // Evolution: on the installation's shared gateway the adapter creates an instance of its own, never adopts.
      const shared = row.type === 'evo' && (await isSharedEvolutionGateway(db, row));
      // A gateway identity another channel holds is refused before the gateway's webhook is rewired.
      if ((row.type === 'meow' || row.type === 'evo') && !shared) await assertGatewayIdentityFree(db, row);
      await transition(ctx, id, { status: 'OPENING' });
      let started: StartResult;
      try {
        const startOptions = row.type === 'evo' ? { ...options, sharedGateway: shared } : options;
        started = await adapter.start(toCredentials(row), webhookUrl(row), startOptions);
      } catch (error) {
        // Not proven (any more): the claim goes with the connection.
        await transition(ctx, id, { status: 'DISCONNECTED', providerKey: null, retries: row.retries + 1 });
        if (!(error instanceof ProviderError)) throw error;
        logger.warn({ channelId: id, reason: error.message }, 'channel connection refused by the provider');
        throw fail('ERR_CHANNEL_PROVIDER');
      }
      const status = started.status ?? 'CONNECTED';
      return toSessionState(
        await settleStart(ctx, row, {
          number: started.number ?? row.number,
          providerState: started.providerState,
          status,
          ...(status === 'CONNECTED' ? { retries: 0 } : {}),
          qrcode: started.qrcode ?? null,
          pairingCode: started.pairingCode ?? null,
          // The provider accepted these credentials for this id: the channel claims it (channels.identity.ts).
          providerKey: providerKeyOf({ ...row, providerState: started.providerState }),
        }),
      );
    },

    /** A transient provider failure leaves the channel connected (its webhook may still be registered). */
    async stopSession(ctx: TenantContext, id: number): Promise<ChannelSessionState> {
      const stateful = await loadStateful(ctx, id);
      if (stateful) return intend(ctx, stateful, { wanted: false }, 'DISCONNECTED');
      const [row, adapter] = await loadWithAdapter(ctx, id);
      try {
        await adapter.stop(toCredentials(row));
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        logger.warn({ channelId: id, reason: error.message }, 'channel disconnection failed at the provider');
        if (!error.permanent) throw fail('ERR_CHANNEL_PROVIDER');
      }
      return toSessionState(await transition(ctx, id, IDENTITY_RELEASE));
    },

    /** State a provider pushed (gateways with QR codes); Telegram pushes none. */
    async applySessionEvent(ctx: TenantContext, id: number, event: SessionEvent): Promise<void> {
      await transition(ctx, id, {
        status: event.status,
        qrcode: event.qrcode ?? null,
        pairingCode: event.pairingCode ?? null,
        ...(event.status === 'CONNECTED' ? { retries: 0 } : {}),
        ...(event.number ? { number: event.number } : {}),
        ...(event.profilePicUrl !== undefined ? { profilePic: event.profilePicUrl } : {}),
      });
    },

    /** Session state, history sync and battery from a session (or a gateway's webhook). */
    async applySideEvent(ctx: TenantContext, id: number, event: SessionSideEvent): Promise<void> {
      if (event.kind === 'session') return this.applySessionEvent(ctx, id, event);
      const row = await withTenant(db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
      if (!row) return;
      if (event.kind === 'battery') {
        events.publish('channels.battery', { tenantId: ctx.tenantId, sessionName: row.name, battery: event.battery });
        return;
      }
      const percent = Math.max(0, Math.min(100, Math.round(event.percent)));
      events.publish('channels.session_sync', { tenantId: ctx.tenantId, session: toSessionState(row), percent });
    },

    /** The session host's own state changes (reconnecting, logged out, QR timeout, conflict). */
    async applyHostStatus(tenantId: number, id: number, status: ChannelStatus, options: { retry?: boolean } = {}) {
      const ctx = { tenantId: asTenantId(tenantId), userId: null, profile: null };
      const row = await withTenant(db, ctx, async (tx) => {
        const current = await repo.lockChannel(tx, ctx.tenantId, id);
        if (!current) return undefined;
        const retries = options.retry ? { retries: current.retries + 1 } : {};
        return repo.updateChannel(tx, ctx.tenantId, id, { status, qrcode: null, pairingCode: null, ...retries });
      });
      if (!row) return;
      events.publish('channels.session_changed', { tenantId, session: toSessionState(row) });
      events.publish('channels.changed', { tenantId, channel: toChannelDto(row, deps.publicUrl) });
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
