/**
 * The types the superadmin's channel form offers and the credentials each asks. The company's own channel screen
 * (/sessoes) has the full form (routing, integrations, QR code); this one sets a channel up in a company. The server
 * applies the same rules to both (channels.service): the form only says what each type needs.
 */
import type { ChannelDto, ChannelSecretField, ChannelType } from '@conversa/shared';

export const TENANT_CHANNEL_TYPES = [
  'baileys',
  'whatsapp',
  'evo',
  'meow',
  'waba',
  'telegram',
] as const satisfies readonly ChannelType[];
export type TenantChannelType = (typeof TENANT_CHANNEL_TYPES)[number];

export type CredentialKey = 'tokenTelegram' | 'remotePath' | 'tokenAPI' | 'wabaId' | 'bmToken' | 'wabaVersion';

export interface CredentialField {
  key: CredentialKey;
  labelKey: string;
  hintKey?: string;
  /** Write-only: never shown back; left empty on an edit keeps the stored value. */
  secret: boolean;
  /** Required when the channel is created (or, for a secret, when none is stored yet). */
  required: boolean;
}

export const CREDENTIALS: Record<TenantChannelType, readonly CredentialField[]> = {
  baileys: [],
  whatsapp: [],
  telegram: [
    {
      key: 'tokenTelegram',
      labelKey: 'channels.form.tokenTelegram',
      hintKey: 'channels.form.tokenTelegramHint',
      secret: true,
      required: true,
    },
  ],
  evo: [
    {
      key: 'remotePath',
      labelKey: 'channels.form.remotePath',
      hintKey: 'channelTenants.remotePathEvoHint',
      secret: false,
      required: false,
    },
    {
      key: 'tokenAPI',
      labelKey: 'channels.form.tokenApiEvo',
      hintKey: 'channels.form.tokenApiEvoHint',
      secret: true,
      required: false,
    },
  ],
  meow: [
    {
      key: 'remotePath',
      labelKey: 'channels.form.remotePath',
      hintKey: 'channels.form.remotePathMeowHint',
      secret: false,
      required: true,
    },
    {
      key: 'tokenAPI',
      labelKey: 'channels.form.tokenApiMeow',
      hintKey: 'channels.form.tokenApiMeowHint',
      secret: true,
      required: true,
    },
    {
      key: 'wabaId',
      labelKey: 'channels.form.instance',
      hintKey: 'channels.form.instanceMeowHint',
      secret: false,
      required: false,
    },
  ],
  waba: [
    {
      key: 'wabaId',
      labelKey: 'channels.meta.waba.wabaId',
      hintKey: 'channels.meta.waba.wabaIdHint',
      secret: false,
      required: true,
    },
    {
      key: 'tokenAPI',
      labelKey: 'channels.meta.waba.tokenAPI',
      hintKey: 'channels.meta.waba.tokenAPIHint',
      secret: true,
      required: false,
    },
    {
      key: 'bmToken',
      labelKey: 'channels.meta.waba.bmToken',
      hintKey: 'channels.meta.waba.bmTokenHint',
      secret: true,
      required: false,
    },
    {
      key: 'wabaVersion',
      labelKey: 'channels.meta.waba.version',
      hintKey: 'channels.meta.waba.versionHint',
      secret: false,
      required: false,
    },
  ],
};

export const isTenantChannelType = (type: string): type is TenantChannelType =>
  (TENANT_CHANNEL_TYPES as readonly string[]).includes(type);

/** The stored value a non-secret field starts with on an edit. */
export function storedValue(channel: ChannelDto | undefined, key: CredentialKey): string {
  if (!channel) return key === 'wabaVersion' ? '20.0' : '';
  if (key === 'remotePath') return channel.remotePath ?? '';
  if (key === 'wabaId') return channel.wabaId ?? '';
  if (key === 'wabaVersion') return channel.wabaVersion;
  return '';
}

export const hasStoredSecret = (channel: ChannelDto | undefined, key: CredentialKey): boolean =>
  Boolean(channel?.configuredSecrets.includes(key as ChannelSecretField));
