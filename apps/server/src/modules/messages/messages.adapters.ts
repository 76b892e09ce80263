/**
 * What the message pipeline needs from the channels module's adapter registry: one adapter per channel type. Declared
 * here so tests pass a recording adapter and the composition root passes the real registry.
 */
import type { ChannelType } from '@conversa/shared';
import { ProviderError, type AdapterRegistry, type ChannelAdapter } from '../channels/index.js';

export interface AdapterLookup {
  get(type: ChannelType): ChannelAdapter;
}

/** The channels module's registry as the pipeline's lookup: a type without an adapter fails its sends for good. */
export function adapterLookup(registry: AdapterRegistry): AdapterLookup {
  return {
    get(type) {
      const adapter = registry.forType(type);
      if (!adapter) throw new ProviderError(`no adapter for channel type ${type}`, true);
      return adapter;
    },
  };
}
