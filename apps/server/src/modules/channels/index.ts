import type { SessionDriver } from './sessions/session-driver.js';
import type { AppModule } from '../../kernel/module.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import { readTenantFlagsOf, readTenantTokens } from '../tenants/index.js';
import { toCredentials } from './channels.dto.js';
import { findChannelById } from './channels.repository.js';
import { createWebhookIntake, inboundSinkOf } from './channels.intake.js';
import { registerChannelsRealtime } from './channels.realtime.js';
import { createAdapterRegistry, defaultSessionDrivers, type AdapterRegistry } from './channels.registry.js';
import { channelsRoutes } from './channels.routes.js';
import { channelsTenantsRoutes } from './channels.tenants.routes.js';
import { createChannelsService } from './channels.service.js';
import { createSessionsService, type SessionsService } from './channels.sessions.js';
import { createSessionHost, type SessionHost } from './sessions/session-host.js';
import { bindLiveOps } from './sessions/session-live-ops.js';
import { readCallPolicy } from './sessions/session-policy.js';
import { webhooksRoutes } from './channels.webhooks.routes.js';
import { createMetaWebhookRouter } from './providers/meta/meta.webhook-routing.js';
import { wuzapiRoutes } from './providers/wuzapi/wuzapi.routes.js';
import { createWuzapiClient } from './providers/wuzapi/wuzapi.client.js';
import { outboundFetchOf } from '../../platform/net/outbound.js';
import { evolutionRoutes } from './providers/evolution/evolution.routes.js';
import { hubRoutes } from './providers/hub/hub.routes.js';
import { metaPagesRoutes } from './providers/meta-messaging/meta-pages.routes.js';
import { wabaRoutes } from './providers/waba/waba.routes.js';

export type {
  AdapterCapabilities,
  ChannelAdapter,
  ChannelCredentials,
  InboundEvent,
  InboundMedia,
  InboundParty,
  OutboundMessage,
  SendResult,
  WebhookRequest,
} from './channels.adapter.js';
export { ProviderError } from './channels.adapter.js';
export { setInboundSink, type InboundSink } from './channels.intake.js';
export { createAdapterRegistry, type AdapterRegistry } from './channels.registry.js';
export { toChannelDto } from './channels.dto.js';
export { findDefaultChannel, findTenantChannel, type ChannelRow } from './channels.repository.js';
export type { SessionDriver, LiveSession, SessionContext, AuthStateStore } from './sessions/session-driver.js';
export { SessionNotRunningError } from './sessions/session-actions.js';
export {
  enqueueChannelJob,
  enqueueSessionJob,
  enqueueSessionJobs,
  registerSessionJobHandler,
} from './sessions/session-jobs.js';
export { findSession } from './sessions/session-lease.js';
export { GATEWAY_CHANNEL_TYPES, LIVE_CHANNEL_TYPES, STATEFUL_CHANNEL_TYPES } from './sessions/session-adapter.js';
export {
  CHECK_BATCH,
  createLiveOps,
  LiveOpUnsupportedError,
  liveOpsOf,
  type LiveOps,
} from './sessions/session-live-ops.js';

/** Each app's adapter registry (the messages module sends through the same one, session adapters included). */
const registries = new WeakMap<object, AdapterRegistry>();

/** Each app's session host (tests drive its supervisor tick by tick). */
const hosts = new WeakMap<object, SessionHost>();

export function sessionHostOf(platform: object): SessionHost | undefined {
  return hosts.get(platform);
}

export function channelAdapters(platform: object): AdapterRegistry {
  const registry = registries.get(platform);
  if (!registry) throw new Error('the channels module is not registered yet');
  return registry;
}

/** The channels module; `sessionDrivers` replaces the installation's stateful drivers (tests pass fakes). */
export const createChannelsModule =
  (sessionDrivers?: SessionDriver[]): AppModule =>
  (platform) => {
    const { db, events, logger, config } = platform;
    // The host reports to the sessions service, which asks the host to act: the service is bound once made.
    const bound: { sessions?: SessionsService } = {};
    const sessionsOf = () => {
      if (!bound.sessions) throw new Error('the sessions service is not ready');
      return bound.sessions;
    };
    const host = createSessionHost({
      db,
      jobs: platform.jobs,
      logger: logger.child({ module: 'sessions' }),
      platform,
      secret: platform.secrets.sessionKey,
      drivers: new Map((sessionDrivers ?? defaultSessionDrivers(config, logger)).map((d) => [d.type, d])),
      timing: config.sessions,
      ports: {
        sessionEvent: (channel, event) =>
          sessionsOf().applySideEvent(systemContext(channel.tenantId), channel.id, event),
        status: (tenantId, channelId, status, options) =>
          sessionsOf().applyHostStatus(tenantId, channelId, status, options),
        async conversation(channel, event) {
          const sink = inboundSinkOf(platform);
          if (!sink) throw new Error('no inbound sink registered');
          await sink.receive(channel, event);
        },
        callPolicy: (tenantId) => readCallPolicy(db, tenantId),
      },
    });
    hosts.set(platform, host);
    const registry = createAdapterRegistry(
      config,
      host,
      (tenantId) => withTenant(db, systemContext(tenantId), (tx) => readTenantTokens(tx, tenantId)),
      (tenantId) => withTenant(db, systemContext(tenantId), (tx) => readTenantFlagsOf(tx, tenantId)),
    );
    registries.set(platform, registry);
    // Groups, phone contacts, history, mentions, bulk number checks: run where the session lives (H7), or on the
    // gateway that holds it (Evolution, Wuzapi).
    bindLiveOps(platform, {
      db,
      jobs: platform.jobs,
      host,
      timeoutMs: config.sessions.actionTimeoutMs,
      async gatewayChannel(channelId) {
        const row = await withSystem(db, 'channels.sessions', (tx) => findChannelById(tx, channelId));
        const adapter = row ? registry.forType(row.type) : undefined;
        if (!row || !adapter?.live) return null;
        const channel = toCredentials(row);
        return { channel, live: adapter.live(channel) };
      },
      async receive(channel, event) {
        const sink = inboundSinkOf(platform);
        if (!sink) throw new Error('no inbound sink registered');
        if (event.kind === 'session' || event.kind === 'session-sync' || event.kind === 'battery') return;
        await sink.receive(channel, event);
      },
      onDeliveryError: (channelId, error) =>
        logger.warn({ channelId, err: error }, 'gateway history: storing a fetched message failed'),
    });
    const service = createChannelsService({ db, events, registry, logger, publicUrl: config.publicUrl });
    const sessions = createSessionsService({
      db,
      events,
      registry,
      logger,
      publicUrl: config.publicUrl,
      jobs: platform.jobs,
      host: () => host,
    });
    bound.sessions = sessions;
    const intake = createWebhookIntake({ db, events, registry, sessions, platform });
    const metaRouter = createMetaWebhookRouter({
      db,
      events,
      registry,
      intake,
      appSecret: config.metaAppSecret,
      logger,
    });
    registerChannelsRealtime(events, platform.realtime);
    return {
      plugin: async (app) => {
        await app.register(channelsRoutes(service, sessions));
        await app.register(channelsTenantsRoutes(db, service));
        await app.register(webhooksRoutes(intake, { router: metaRouter, verifyToken: config.metaVerifyToken }));
        await app.register(
          wuzapiRoutes({
            db,
            sessions,
            publicUrl: config.publicUrl,
            client: createWuzapiClient({ fetch: outboundFetchOf(config) }),
          }),
        );
        await app.register(evolutionRoutes({ db, registry, sessions, publicUrl: config.publicUrl }));
        await app.register(hubRoutes({ db, service, sessions, intake, hubApiUrl: config.hubApiUrl }));
        await app.register(metaPagesRoutes({ db, events, registry, logger, publicUrl: config.publicUrl }));
        await app.register(wabaRoutes({ db, graphUrl: config.metaGraphUrl }));
      },
      // Nodes with workers on run stateful sessions; shutdown closes them (auth kept) and frees their leases.
      start: async () => host.start(),
      stop: () => host.stop(),
    };
  };
export { loadChannelCredentials } from './channels.credentials.js';
export {
  bodyParameterCount,
  findApprovedTemplate,
  renderTemplatePreview,
  sentParameters,
} from './providers/waba/waba.templates.js';
