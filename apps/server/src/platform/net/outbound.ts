/**
 * The installation's checked fetch, built from the configuration in one place: OUTBOUND_ALLOW's hosts and networks,
 * and the origins the operator configured (PUBLIC_URL, TELEGRAM_API_ROOT, META_GRAPH_URL, HUB_API_URL, and the
 * Baileys simulator of the tests), which are trusted as they are. One instance per configuration object, so every
 * module of an app shares it.
 *
 * Provider clients built without one (a tool, a provider's own unit test) get `defaultOutbound()`: the strict policy
 * (public addresses, ports 80/443). The server test setup points that default at loopback for the simulators.
 */
import type { Config } from '../../config.js';
import { createOutboundFetch, STRICT_POLICY, type OutboundFetch, type OutboundPolicy } from './safe-fetch.js';

export type OutboundConfig = Pick<
  Config,
  'outboundAllow' | 'publicUrl' | 'telegramApiRoot' | 'metaGraphUrl' | 'hubApiUrl' | 'baileysSimulatorUrl'
>;

const originOf = (url: string | undefined): string[] => {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

export function outboundPolicyOf(config: OutboundConfig): OutboundPolicy {
  return {
    allow: config.outboundAllow,
    trustedOrigins: [
      // The server's own address: a chat flow's uploaded media is served there (/api/public/chat-flow/...).
      config.publicUrl,
      config.telegramApiRoot,
      config.metaGraphUrl,
      config.hubApiUrl,
      config.baileysSimulatorUrl,
    ].flatMap(originOf),
  };
}

const byConfig = new WeakMap<object, OutboundFetch>();

/** The checked fetch of this configuration (built once per config object). */
export function outboundFetchOf(config: OutboundConfig): OutboundFetch {
  let fetcher = byConfig.get(config);
  if (!fetcher) {
    fetcher = createOutboundFetch({ policy: outboundPolicyOf(config) });
    byConfig.set(config, fetcher);
  }
  return fetcher;
}

let fallback: OutboundFetch | undefined;

/** The checked fetch of clients built without one: strict unless a test setup replaced it. */
export function defaultOutbound(): OutboundFetch {
  return (fallback ??= createOutboundFetch({ policy: STRICT_POLICY }));
}

/** Test setup only (src/test/outbound-setup.ts): the default for provider clients built without a fetch. */
export function setDefaultOutboundForTests(fetcher: OutboundFetch): void {
  fallback = fetcher;
}
