/**
 * The adapter registry: the only place that chooses code by channel type. A type without an adapter here cannot be
 * created (ERR_CHANNEL_TYPE_UNSUPPORTED); `SUPPORTED_CHANNEL_TYPES` in packages/shared mirrors this list for the web.
 */
import type { ChannelType } from '@conversa/shared';
import type { Config } from '../../config.js';
import type { ChannelAdapter } from './channels.adapter.js';
import { createEvolutionAdapter } from './providers/evolution/evolution.adapter.js';
import { createTelegramAdapter } from './providers/telegram/telegram.adapter.js';
import { createWuzapiAdapter } from './providers/wuzapi/wuzapi.adapter.js';

export interface AdapterRegistry {
  forType(type: ChannelType): ChannelAdapter | undefined;
  /** The adapter named by a webhook path segment (`/webhooks/{provider}/...`). */
  forProvider(name: string): ChannelAdapter | undefined;
  types(): ChannelType[];
}

export function createAdapterRegistry(config: Pick<Config, 'telegramApiRoot'>): AdapterRegistry {
  const adapters = new Map<string, ChannelAdapter>([
    ['telegram', createTelegramAdapter({ apiRoot: config.telegramApiRoot })],
    ['meow', createWuzapiAdapter()],
    ['evo', createEvolutionAdapter()],
  ]);
  return {
    forType: (type) => adapters.get(type),
    forProvider: (name) => adapters.get(name),
    types: () => [...adapters.keys()] as ChannelType[],
  };
}
