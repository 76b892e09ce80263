import type { AppModule } from '../../modules.js';
import { createWebhookIntake } from './channels.intake.js';
import { registerChannelsRealtime } from './channels.realtime.js';
import { createAdapterRegistry } from './channels.registry.js';
import { channelsRoutes } from './channels.routes.js';
import { channelsTenantsRoutes } from './channels.tenants.routes.js';
import { createChannelsService } from './channels.service.js';
import { createSessionsService } from './channels.sessions.js';
import { webhooksRoutes } from './channels.webhooks.routes.js';
import { wuzapiRoutes } from './providers/wuzapi/wuzapi.routes.js';
import { evolutionRoutes } from './providers/evolution/evolution.routes.js';

export { channels, userChannels } from './channels.tables.js';
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

export const channelsModule: AppModule = (platform) => {
  const { db, events, logger, config } = platform;
  const registry = createAdapterRegistry(config);
  const service = createChannelsService({ db, events, registry, logger });
  const sessions = createSessionsService({ db, events, registry, logger, publicUrl: config.publicUrl });
  const intake = createWebhookIntake({ db, events, registry, sessions, platform });
  registerChannelsRealtime(events, platform.realtime);
  return {
    plugin: async (app) => {
      await app.register(channelsRoutes(service, sessions));
      await app.register(channelsTenantsRoutes(db, service));
      await app.register(webhooksRoutes(intake));
      await app.register(wuzapiRoutes({ db, sessions, publicUrl: config.publicUrl }));
      await app.register(evolutionRoutes({ db, registry, sessions, publicUrl: config.publicUrl }));
    },
  };
};
export { loadChannelCredentials } from './channels.credentials.js';
