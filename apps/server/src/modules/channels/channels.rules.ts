/**
 * The write rules of a channel, without the database: which input fields become which columns (secrets left empty
 * keep the stored value, because clients echo the object without them), and what a type demands.
 */
import crypto from 'node:crypto';
import {
  CHANNEL_FLAG_KEYS,
  CHANNEL_SECRET_FIELDS,
  SECRET_INTEGRATION_KEYS,
  type ChannelInputParsed,
  type ChannelIntegrations,
} from '@conversa/shared';
import { fail } from '../../platform/http/errors.js';
import type { ChannelRow, ChannelValues } from './channels.repository.js';
import {
  EVOLUTION_INSTANCE_PATTERN,
  evolutionInstanceName,
  evolutionInstanceOf,
} from './providers/evolution/evolution.adapter.js';
import { isEvolutionBaseUrl } from './providers/evolution/evolution.client.js';
import { TELEGRAM_TOKEN_PATTERN } from './providers/telegram/telegram.client.js';

/** Plain columns copied when present in the input (null clears them). */
const PLAIN_FIELDS = [
  'name',
  'number',
  'isActive',
  'queueId',
  'userId',
  'chatFlowId',
  'wabaId',
  'wabaBSP',
  'instagramUser',
  'wppUser',
  'proxyUrl',
  'proxyUser',
  'webversion',
  'remotePath',
  'farewellMessage',
  'closeKeyWord',
  'webhook',
  'birthdayDateMessage',
  'birthdayDateHour',
  'bDateFileName',
  'queueIdImportMessages',
  'wavoipToken',
  ...CHANNEL_FLAG_KEYS,
] as const satisfies readonly (keyof ChannelInputParsed & keyof ChannelValues)[];

/** A fresh webhook secret: 43 characters of [A-Za-z0-9_-], the alphabet Telegram's secret_token allows. */
export const newWebhookSecret = (): string => crypto.randomBytes(32).toString('base64url');

const toDate = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : new Date(value);

function mergeIntegrations(
  stored: ChannelIntegrations,
  given: ChannelInputParsed['integrations'],
): ChannelIntegrations | undefined {
  if (!given) return undefined;
  const merged: ChannelIntegrations = { ...stored };
  for (const [key, value] of Object.entries(given) as [keyof ChannelIntegrations, string | undefined][]) {
    if (value === undefined) continue;
    // An empty secret is the client echoing a value it was never shown: keep the stored one.
    if (value === '' && SECRET_INTEGRATION_KEYS.includes(key)) continue;
    merged[key] = value;
  }
  return merged;
}

/** The columns an input sets; `existing` is the stored row on update. */
export function channelValues(input: ChannelInputParsed, existing?: ChannelRow): Partial<ChannelValues> {
  const values: Partial<ChannelValues> = {};
  const target = values as Record<string, unknown>;
  for (const field of PLAIN_FIELDS) {
    if (input[field] !== undefined) target[field] = input[field];
  }
  for (const field of CHANNEL_SECRET_FIELDS) {
    if (input[field]) target[field] = input[field];
  }
  if (input.wabaVersion) values.wabaVersion = input.wabaVersion;
  const oldest = toDate(input.importOldMessages);
  const recent = toDate(input.importRecentMessages);
  if (oldest !== undefined) values.importOldMessages = oldest;
  if (recent !== undefined) values.importRecentMessages = recent;
  const integrations = mergeIntegrations(existing?.integrations ?? {}, input.integrations);
  if (integrations) values.integrations = integrations;
  return { ...values, ...distributionValues(input, existing) };
}

/**
 * The distribution mode and `selfDistribute` kept in step (issue 16 decisions §B): a mode that differs from the stored
 * one (any mode on create) decides both, `selfDistribute` enabled exactly when it is not N; otherwise a given
 * `selfDistribute` decides: enabled makes an N channel B (R and B stay), disabled makes it N. Clients echo the whole
 * object, so a mode equal to the stored one is not a choice: an older form that knows only the switch still works.
 */
export function distributionValues(
  input: Pick<ChannelInputParsed, 'distribution' | 'selfDistribute'>,
  existing?: Pick<ChannelRow, 'distribution'>,
): Partial<Pick<ChannelValues, 'distribution' | 'selfDistribute'>> {
  const stored = existing?.distribution ?? 'N';
  if (input.distribution !== undefined && (!existing || input.distribution !== stored)) {
    return { distribution: input.distribution, selfDistribute: input.distribution === 'N' ? 'disabled' : 'enabled' };
  }
  if (input.selfDistribute === 'enabled') {
    return { distribution: stored === 'N' ? 'B' : stored, selfDistribute: 'enabled' };
  }
  if (input.selfDistribute === 'disabled') return { distribution: 'N', selfDistribute: 'disabled' };
  return {};
}

/** Type rules: the type is fixed after creation, and a Telegram channel needs a well-formed bot token. */
export function assertTypeRules(input: ChannelInputParsed, existing?: ChannelRow): void {
  if (existing && input.type !== existing.type) throw fail('ERR_VALIDATION', 'type');
  if (input.type === 'telegram') {
    const token = input.tokenTelegram || existing?.tokenTelegram;
    if (!token) throw fail('ERR_TELEGRAM_TOKEN_REQUIRED', 'tokenTelegram');
    if (!TELEGRAM_TOKEN_PATTERN.test(token)) throw fail('ERR_VALIDATION', 'tokenTelegram');
  }
  if (input.type === 'evo') assertEvolutionRules(input, existing);
}

/**
 * A new bot token means another bot: the old connection is gone, and the secret changes so the old bot's webhook,
 * if it still points here, is refused.
 */
export function credentialChange(input: ChannelInputParsed, existing: ChannelRow): Partial<ChannelValues> {
  if (!input.tokenTelegram || input.tokenTelegram === existing.tokenTelegram) return {};
  return { status: 'DISCONNECTED', number: null, providerState: {}, webhookSecret: newWebhookSecret() };
}

// ---------- Evolution (evo) channels ----------

/** The tenant's gateway defaults (client-contract §10), read when a channel is created. */
export interface GatewayDefaults {
  evoHost: string | null;
  evoToken: string | null;
  wuzapiHost: string | null;
}

/**
 * An input completed with what its type decides rather than the client. Evolution: on creation the name is the given
 * name reduced to [A-Za-z0-9] and the instance name (`wabaId`) the given name reduced to [A-Za-z0-9_-] (Evolution's
 * hyphens and underscores kept: the exact name of an existing instance on a company's own gateway; on the shared
 * gateway the start names an instance of its own, providers/evolution/evolution.instance.ts), and an empty API URL or
 * key is the tenant's default (`evoHost`, `evoToken`); afterwards the instance name stays, and an empty API URL
 * keeps the stored one. Other types pass through.
 */
export function completeTypeInput(
  input: ChannelInputParsed,
  existing?: ChannelRow,
  defaults?: GatewayDefaults,
): ChannelInputParsed {
  if (input.type !== 'evo') return input;
  if (existing) return { ...input, wabaId: existing.wabaId, remotePath: input.remotePath || existing.remotePath };
  const name = evolutionInstanceName(input.name);
  return {
    ...input,
    name,
    wabaId: evolutionInstanceOf(input.name),
    remotePath: input.remotePath || defaults?.evoHost || null,
    tokenAPI: input.tokenAPI || defaults?.evoToken || null,
  };
}

/** A completed Evolution input: a usable instance name that never changes, a valid API URL, an API key. */
function assertEvolutionRules(input: ChannelInputParsed, existing?: ChannelRow): void {
  if (!input.name || evolutionInstanceName(input.name) !== input.name) throw fail('ERR_VALIDATION', 'name');
  if (existing && input.name !== existing.name) throw fail('ERR_VALIDATION', 'name');
  if (!existing && !EVOLUTION_INSTANCE_PATTERN.test(input.wabaId ?? '')) throw fail('ERR_VALIDATION', 'name');
  if (!input.remotePath || !isEvolutionBaseUrl(input.remotePath)) throw fail('ERR_VALIDATION', 'remotePath');
  if (!(input.tokenAPI || existing?.tokenAPI)) throw fail('ERR_VALIDATION', 'tokenAPI');
  // The stored key (often the installation's shared gateway key) never follows the channel to another API URL: a
  // new URL comes with its key, or the next start would hand the stored key to whatever host the URL names.
  if (existing && input.remotePath !== existing.remotePath && !input.tokenAPI) throw fail('ERR_VALIDATION', 'tokenAPI');
}
