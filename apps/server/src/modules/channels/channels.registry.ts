/**
 * The adapter registry: the only place that chooses code by channel type. A type without an adapter here cannot be
 * created (ERR_CHANNEL_TYPE_UNSUPPORTED); `SUPPORTED_CHANNEL_TYPES` in packages/shared mirrors this list for the web.
 */
import path from 'node:path';
import { HUB_CHANNEL_TYPES, type ChannelType, type TenantFlags } from '@conversa/shared';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { TenantTokens } from '../tenants/index.js';
import type { ChannelAdapter } from './channels.adapter.js';
import { outboundFetchOf, type OutboundConfig } from '../../platform/net/outbound.js';
import { createEvolutionAdapter } from './providers/evolution/evolution.adapter.js';
import { createEvolutionClient } from './providers/evolution/evolution.client.js';
import { metaMessagingAdapters } from './providers/meta-messaging/meta-messaging.adapter.js';
import { createHubAdapter } from './providers/hub/hub.adapter.js';
import { createHubClient } from './providers/hub/hub.client.js';
import { createTelegramAdapter } from './providers/telegram/telegram.adapter.js';
import { createWabaAdapter } from './providers/waba/waba.adapter.js';
import { createWabaClient } from './providers/waba/waba.client.js';
import { createWuzapiAdapter } from './providers/wuzapi/wuzapi.adapter.js';
import { createWuzapiClient } from './providers/wuzapi/wuzapi.client.js';
import { createWwebjsDriver } from './providers/wwebjs/wwebjs.driver.js';
import { createSessionAdapter } from './sessions/session-adapter.js';
import type { SessionDriver } from './sessions/session-driver.js';
import type { SessionHost } from './sessions/session-host.js';

export type TenantTokensReader = (tenantId: number) => Promise<TenantTokens>;

export interface AdapterRegistry {
  forType(type: ChannelType): ChannelAdapter | undefined;
  /** The adapter named by a webhook path segment (`/webhooks/{provider}/...`). */
  forProvider(name: string): ChannelAdapter | undefined;
  types(): ChannelType[];
}

/**
 * Stateful types get a session adapter over their driver, run by the host; without a host (a registry built for
 * a tool or a test) they are absent.
 */
export function createAdapterRegistry(
  config: Pick<Config, 'telegramApiRoot' | 'metaGraphUrl' | 'metaAppSecret' | 'hubApiUrl'> & OutboundConfig,
  host?: SessionHost,
  /** The tenant's provider tokens (tenants.meta_token, waba_token, hub_token); absent in tools without a database. */
  tenantTokens?: TenantTokensReader,
  /** The tenant's toggles (client-contract §10; Instagram's ignoreIgStories); absent in tools without a database. */
  tenantFlags?: (tenantId: number) => Promise<TenantFlags>,
): AdapterRegistry {
  // Every fetch of a tenant's URL (gateway base URLs, attachment and media links) goes through the checked fetch.
  const outbound = outboundFetchOf(config);
  const adapters = new Map<string, ChannelAdapter>([
    ['telegram', createTelegramAdapter({ apiRoot: config.telegramApiRoot })],
    ['meow', createWuzapiAdapter({ client: createWuzapiClient({ fetch: outbound }) })],
    ['evo', createEvolutionAdapter({ client: createEvolutionClient({ fetch: outbound }) })],
    ...metaMessagingAdapters(config, tenantFlags, outbound),
    [
      'waba',
      createWabaAdapter({
        graphUrl: config.metaGraphUrl,
        client: createWabaClient({ graphUrl: config.metaGraphUrl, fetch: outbound }),
        appSecret: config.metaAppSecret,
        tenantToken: tenantTokens && (async (tenantId) => (await tenantTokens(tenantId)).wabaToken),
      }),
    ],
  ]);
  const hubClient = createHubClient(config.hubApiUrl, { fetch: outbound });
  const hubToken = tenantTokens && (async (tenantId: number) => (await tenantTokens(tenantId)).hubToken);
  for (const type of HUB_CHANNEL_TYPES) {
    adapters.set(type, createHubAdapter({ type, client: hubClient, tenantToken: hubToken }));
  }
  for (const driver of host?.drivers() ?? []) adapters.set(driver.type, createSessionAdapter(driver, host!));
  return {
    forType: (type) => adapters.get(type),
    forProvider: (name) => adapters.get(name),
    types: () => [...adapters.keys()] as ChannelType[],
  };
}

/**
 * The stateful session drivers of this installation (tests pass their own through ModuleOverrides.sessionDrivers). Baileys'
 * socket factory is loaded on first use: BAILEYS_SOCKET_MODULE (a test hook) may name a module to import instead.
 */
export function defaultSessionDrivers(
  config: Pick<Config, 'baileysSocketModule' | 'baileysSimulatorUrl' | 'chromiumPath' | 'dataDir'>,
  logger: Logger,
): SessionDriver[] {
  return [
    createWwebjsDriver({
      chromiumPath: config.chromiumPath,
      dataDir: path.join(config.dataDir, 'wwebjs'),
      logger: logger.child({ driver: 'whatsapp' }),
    }),
    // Loaded on first use: the baileys library (and its protobuf definitions) costs ~30 MB of memory on every node,
    // also on those that never run a Baileys session.
    lazySessionDriver('baileys', async () => {
      const { createBaileysDriver, loadBaileysSocketFactory } = await import('./providers/baileys/baileys.driver.js');
      return createBaileysDriver({
        makeSocket: await loadBaileysSocketFactory(config),
        logger: logger.child({ driver: 'baileys' }),
      });
    }),
  ];
}

/**
 * A driver whose construction is asynchronous (a socket module loaded at run time): built on first use, so the
 * registry stays synchronous.
 */
export function lazySessionDriver(type: SessionDriver['type'], build: () => Promise<SessionDriver>): SessionDriver {
  let built: Promise<SessionDriver> | undefined;
  const driver = () => (built ??= build());
  return {
    type,
    open: async (channel, context) => (await driver()).open(channel, context),
    downloadMedia: async (ref, maxBytes) => (await driver()).downloadMedia(ref, maxBytes),
  };
}
