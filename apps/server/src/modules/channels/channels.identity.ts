/**
 * Provider identity is a credential (issue 22). A channel holds its provider id (a WhatsApp number, a page, an
 * Instagram account, a bot, a hub channel, a gateway instance) as a claim, `channels.provider_key`, unique across
 * tenants (index `channels_provider_key_unique`): one live channel per provider id in the installation.
 *
 * - The claim is written only by a start that proved the credentials own the id (the sessions service's start, and
 *   `/fb/register-pages`), computed here from the row and what the start learnt (`providerState`).
 * - It goes when the channel is disconnected, deleted, its start fails, or one of its identity fields changes: any
 *   such edit disconnects the channel (`IDENTITY_RELEASE`), and only a new start proves the new values.
 * - A second claim of a held key is refused by the database (unique violation: `isProviderKeyConflict`), answered
 *   409 ERR_CHANNEL_IDENTITY_TAKEN, the channel left disconnected. Nothing remote is undone then: the provider
 *   object is the claimant's too (unsubscribing a page would cut the claimant's webhooks off).
 *
 * Creating a channel claims nothing, so typing another company's id into a form reserves nothing either.
 */
import crypto from 'node:crypto';
import { isHubChannelType, type ChannelType } from '@conversa/shared';
import type { ChannelRow, ChannelValues } from './channels.repository.js';

/** The columns a provider identity or its credentials live in. */
export type IdentityField =
  'wabaId' | 'tokenAPI' | 'bmToken' | 'metaAppSecret' | 'tokenTelegram' | 'instagramKey' | 'remotePath';

export type IdentityFacts = Pick<ChannelRow, 'type' | 'providerState' | IdentityField>;

const META: readonly IdentityField[] = ['wabaId', 'tokenAPI', 'metaAppSecret'];
const GATEWAY: readonly IdentityField[] = ['wabaId', 'tokenAPI', 'remotePath'];

/**
 * Per type, the fields whose change means another identity or credential. Stateful sessions (baileys, whatsapp)
 * have none: their identity is the phone that scanned the code, and nothing typed in the form changes it.
 */
const IDENTITY_FIELDS: Partial<Record<ChannelType, readonly IdentityField[]>> = {
  waba: [...META, 'bmToken'],
  messenger: META,
  instagram: [...META, 'instagramKey'],
  telegram: ['tokenTelegram'],
  evo: GATEWAY,
  meow: GATEWAY,
};

export function identityFieldsOf(type: string): readonly IdentityField[] {
  if (isHubChannelType(type)) return ['wabaId', 'tokenAPI'];
  return IDENTITY_FIELDS[type as ChannelType] ?? [];
}

const norm = (value: string | null | undefined): string | null => (value?.trim() ? value : null);

/** True when `values` (an edit's columns) change one of the channel's identity fields. */
export function identityChanged(existing: ChannelRow, values: Partial<ChannelValues>): boolean {
  return identityFieldsOf(existing.type).some(
    (field) => values[field] !== undefined && norm(values[field]) !== norm(existing[field]),
  );
}

/** True when both rows carry the same identity (a start proved `before`; `after` is the row when it finished). */
export function sameIdentity(before: IdentityFacts, after: IdentityFacts): boolean {
  return identityFieldsOf(before.type).every((field) => norm(before[field]) === norm(after[field]));
}

/** What an identity change, a disconnect or a failed start writes: disconnected, the claim released. */
export const IDENTITY_RELEASE = {
  status: 'DISCONNECTED',
  providerKey: null,
  qrcode: null,
  pairingCode: null,
} as const satisfies Partial<ChannelValues>;

/**
 * Whether an identity edit also undoes the old connection at the provider (the old bot's webhook, the old page's or
 * hub channel's subscription). A gateway's WhatsApp session stays logged in: a logout would force a new QR scan for
 * a fixed typo, and its webhooks are dropped while the channel is disconnected.
 */
export const releasesOnIdentityEdit = (type: string): boolean => type !== 'evo' && type !== 'meow';

/** Keys stay short enough for the unique btree index (a long gateway URL is hashed). */
const KEY_MAX = 300;

const stateText = (state: Record<string, unknown>, key: string): string | null => {
  const value = state[key];
  return typeof value === 'string' || typeof value === 'number' ? norm(String(value)) : null;
};

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/**
 * A gateway's API base as one string: scheme, lower-case host, port only when not the default, path without its
 * trailing slashes (`https://EVO.example:443/api/` -> `https://evo.example/api`); null when not an http(s) URL.
 */
export function gatewayBase(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

function gatewayKey(kind: 'evolution' | 'wuzapi', base: string | null, instance: string | null): string | null {
  if (!base || !instance) return null;
  const key = `${kind}:${base}/${instance}`;
  return key.length <= KEY_MAX ? key : `${kind}:#${sha256(key)}`;
}

/**
 * The claim of a channel, from its row and what its start learnt (`providerState`); null for types without one
 * (stateful sessions) or a row that names no identity. Keys (keep in step with migration 0016's backfill):
 * `waba:<phone number id>`, `messenger:<page id>`, `instagram:<Instagram account id>`, `telegram:<bot id>`,
 * `hub:<hub channel id>` (every hub type: one hub channel, one claimant), `evolution:<gateway base>/<instance>`,
 * `wuzapi:<gateway base>/<sha256 of the user token>` (a Wuzapi user is its token).
 */
export function providerKeyOf(facts: IdentityFacts): string | null {
  const id = norm(facts.wabaId);
  const state = facts.providerState ?? {};
  if (isHubChannelType(facts.type)) return id && `hub:${id}`;
  switch (facts.type) {
    case 'waba':
      return id && `waba:${id}`;
    case 'messenger': {
      const page = id ?? stateText(state, 'pageId');
      return page && `messenger:${page}`;
    }
    case 'instagram': {
      const account = id ?? stateText(state, 'instagramId');
      return account && `instagram:${account}`;
    }
    case 'telegram': {
      // The bot id getMe answered, else the token's own prefix (Telegram tokens are `<bot id>:<secret>`).
      const bot = stateText(state, 'botId') ?? norm(facts.tokenTelegram?.split(':')[0]);
      return bot && `telegram:${bot}`;
    }
    case 'evo':
      // The instance the start connected (on the shared gateway a name it made up), else the stored name.
      return gatewayKey('evolution', gatewayBase(facts.remotePath), stateText(state, 'instanceName') ?? id);
    case 'meow': {
      const token = norm(facts.tokenAPI);
      return gatewayKey('wuzapi', gatewayBase(facts.remotePath), token && sha256(token).slice(0, 32));
    }
    default:
      return null;
  }
}

export const PROVIDER_KEY_INDEX = 'channels_provider_key_unique';

/** True when the error is the unique claim refusing a second channel (drizzle wraps the driver's error in `cause`). */
export function isProviderKeyConflict(error: unknown): boolean {
  return [error, (error as { cause?: unknown } | null)?.cause].some((candidate) => {
    const pgError = candidate as { code?: string; constraint?: string; message?: string } | null;
    return (
      pgError?.code === '23505' &&
      (pgError.constraint === PROVIDER_KEY_INDEX || Boolean(pgError.message?.includes(PROVIDER_KEY_INDEX)))
    );
  });
}
