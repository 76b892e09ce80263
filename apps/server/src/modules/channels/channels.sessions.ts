/**
 * Channel sessions: connecting (for Telegram: check the token, register the webhook with the channel secret),
 * disconnecting, and state pushed by a provider. Provider calls run outside any transaction: a slow provider must
 * not hold a database connection (nor PGlite's single session).
 */
import type { ChannelSessionState } from '@conversa/shared';
import type { Logger } from 'pino';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { ProviderError, type ChannelAdapter, type InboundEvent } from './channels.adapter.js';
import { toChannelDto, toCredentials, toSessionState } from './channels.dto.js';
import type { AdapterRegistry } from './channels.registry.js';
import * as repo from './channels.repository.js';
import './channels.events.js';

type SessionEvent = Extract<InboundEvent, { kind: 'session' }>;

export function createSessionsService(deps: {
  db: Database;
  events: EventBus;
  registry: AdapterRegistry;
  logger: Logger;
  publicUrl: string;
}) {
  const { db, events, registry, logger } = deps;

  const webhookUrl = (row: repo.ChannelRow) => `${deps.publicUrl}/api/webhooks/${row.type}/${row.id}`;

  /** Writes the new state and tells the tenant's screens. */
  async function transition(ctx: TenantContext, id: number, patch: Partial<repo.ChannelValues>) {
    const row = await withTenant(db, ctx, (tx) => repo.updateChannel(tx, ctx.tenantId, id, patch));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    events.publish('channels.session_changed', { tenantId: ctx.tenantId, session: toSessionState(row) });
    events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toChannelDto(row) });
    return row;
  }

  async function loadWithAdapter(ctx: TenantContext, id: number): Promise<[repo.ChannelRow, ChannelAdapter]> {
    const row = await withTenant(db, ctx, (tx) => repo.findChannel(tx, ctx.tenantId, id));
    if (!row) throw fail('ERR_NO_WAPP_FOUND');
    const adapter = registry.forType(row.type);
    if (!adapter) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    return [row, adapter];
  }

  return {
    async startSession(ctx: TenantContext, id: number): Promise<ChannelSessionState> {
      const [row, adapter] = await loadWithAdapter(ctx, id);
      if (row.type === 'telegram' && !row.tokenTelegram) throw fail('ERR_TELEGRAM_TOKEN_REQUIRED');
      await transition(ctx, id, { status: 'OPENING' });
      try {
        const started = await adapter.start(toCredentials(row), webhookUrl(row));
        const status = started.status ?? 'CONNECTED';
        return toSessionState(
          await transition(ctx, id, {
            number: started.number ?? row.number,
            providerState: started.providerState,
            status,
            ...(status === 'CONNECTED' ? { retries: 0 } : {}),
            qrcode: started.qrcode ?? null,
            pairingCode: started.pairingCode ?? null,
          }),
        );
      } catch (error) {
        await transition(ctx, id, { status: 'DISCONNECTED', retries: row.retries + 1 });
        if (!(error instanceof ProviderError)) throw error;
        logger.warn({ channelId: id, reason: error.message }, 'channel connection refused by the provider');
        throw fail('ERR_CHANNEL_PROVIDER');
      }
    },

    /** A transient provider failure leaves the channel connected (its webhook may still be registered). */
    async stopSession(ctx: TenantContext, id: number): Promise<ChannelSessionState> {
      const [row, adapter] = await loadWithAdapter(ctx, id);
      try {
        await adapter.stop(toCredentials(row));
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        logger.warn({ channelId: id, reason: error.message }, 'channel disconnection failed at the provider');
        if (!error.permanent) throw fail('ERR_CHANNEL_PROVIDER');
      }
      return toSessionState(await transition(ctx, id, { status: 'DISCONNECTED', qrcode: null, pairingCode: null }));
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
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
