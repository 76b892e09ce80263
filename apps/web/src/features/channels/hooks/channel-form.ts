/** The channel form (product-spec §5 "Channel"): its values, their checks and the POST/PUT body (channelInputSchema). */
import type { TFunction } from 'i18next';
import {
  CHANNEL_FLAG_KEYS,
  CHANNEL_INTEGRATION_KEYS,
  CHANNEL_SECRET_FIELDS,
  channelInputSchema,
  SECRET_INTEGRATION_KEYS,
  SUPPORTED_CHANNEL_TYPES,
  type ChannelDto,
  type ChannelFlagKey,
  type ChannelInput,
  type ChannelIntegrationKey,
  type ChannelType,
} from '@conversa/shared';

export interface ChannelFormValues {
  type: ChannelType;
  name: string;
  /** Empty on edit keeps the stored token. */
  tokenTelegram: string;
  isDefault: boolean;
  /** Ids as strings (Select values). */
  queueId: string | null;
  userId: string | null;
  farewellMessage: string;
  closeKeyWord: string;
  birthdayDateMessage: string;
  /** '0'..'23': whole hours (the spec's birthday hour ignores minutes). */
  birthdayDateHour: string | null;
  /** Write-only like the bot token: empty on edit keeps the stored list. */
  wavoipToken: string;
  flags: Record<ChannelFlagKey, boolean>;
  integrations: Record<ChannelIntegrationKey, string>;
}

/** Fields the form edits; every other non-secret field of the input is echoed back unchanged on edit. */
const FORM_FIELDS = new Set<string>([
  'type',
  'name',
  'tokenTelegram',
  'isDefault',
  'queueId',
  'userId',
  'farewellMessage',
  'closeKeyWord',
  'birthdayDateMessage',
  'birthdayDateHour',
  'wavoipToken',
  'integrations',
  ...CHANNEL_FLAG_KEYS,
]);
const SECRET_FIELDS = new Set<string>(CHANNEL_SECRET_FIELDS);
const ECHOED_FIELDS = Object.keys(channelInputSchema.shape).filter(
  (key) => !FORM_FIELDS.has(key) && !SECRET_FIELDS.has(key),
);

export const isSecretIntegration = (key: ChannelIntegrationKey): boolean => SECRET_INTEGRATION_KEYS.includes(key);
export const isSupportedType = (type: ChannelType): boolean => SUPPORTED_CHANNEL_TYPES.includes(type);

/** A secret the server holds for this channel: the field may stay empty to keep it. */
export const hasSecret = (channel: ChannelDto | undefined, field: string): boolean =>
  channel?.configuredSecrets.includes(field) ?? false;

export function channelToValues(channel?: ChannelDto): ChannelFormValues {
  const flags = Object.fromEntries(
    CHANNEL_FLAG_KEYS.map((key) => [key, channel ? channel[key] === 'enabled' : false]),
  ) as Record<ChannelFlagKey, boolean>;
  const integrations = Object.fromEntries(
    CHANNEL_INTEGRATION_KEYS.map((key) => [key, channel?.integrations[key] ?? '']),
  ) as Record<ChannelIntegrationKey, string>;
  return {
    type: channel?.type ?? SUPPORTED_CHANNEL_TYPES[0] ?? 'telegram',
    name: channel?.name ?? '',
    tokenTelegram: '',
    isDefault: channel?.isDefault ?? false,
    queueId: channel?.queueId != null ? String(channel.queueId) : null,
    userId: channel?.userId != null ? String(channel.userId) : null,
    farewellMessage: channel?.farewellMessage ?? '',
    closeKeyWord: channel?.closeKeyWord ?? '',
    birthdayDateMessage: channel?.birthdayDateMessage ?? '',
    birthdayDateHour: channel?.birthdayDateHour != null ? String(channel.birthdayDateHour) : null,
    wavoipToken: '',
    flags,
    integrations,
  };
}

export function validateChannel(
  values: ChannelFormValues,
  channel: ChannelDto | undefined,
  t: TFunction,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = t('validation.required', { attribute: t('channels.form.name') });
  const typeChanged = channel?.type !== values.type;
  if (typeChanged && !isSupportedType(values.type)) errors.type = t('errors.ERR_CHANNEL_TYPE_UNSUPPORTED');
  const keepsToken = !typeChanged && hasSecret(channel, 'tokenTelegram');
  if (values.type === 'telegram' && !values.tokenTelegram.trim() && !keepsToken) {
    errors.tokenTelegram = t('errors.ERR_TELEGRAM_TOKEN_REQUIRED');
  }
  return errors;
}

const textOrNull = (value: string) => value.trim() || null;
const idOrNull = (value: string | null) => (value ? Number(value) : null);
const flag = (on: boolean) => (on ? 'enabled' : 'disabled');

/** Voice-call tokens are one comma-separated list (product-spec §5): no blanks, no spaces around the commas. */
export const normaliseTokenList = (value: string): string | null =>
  value
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean)
    .join(',') || null;

function integrationsInput(
  values: ChannelFormValues,
  channel?: ChannelDto,
): Partial<Record<ChannelIntegrationKey, string>> {
  const out: Partial<Record<ChannelIntegrationKey, string>> = {};
  for (const key of CHANNEL_INTEGRATION_KEYS) {
    const value = values.integrations[key].trim();
    // A secret left empty is left out, so the server keeps the stored one; a cleared setting is sent empty.
    if (isSecretIntegration(key)) {
      if (value) out[key] = value;
    } else if (value || (channel && key in channel.integrations)) {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The POST/PUT body: only fields of channelInputSchema. On edit the fields this form does not show are echoed back
 * as the server sent them (the reference client sends the whole object); secrets left empty are not sent at all.
 */
export function valuesToInput(values: ChannelFormValues, channel?: ChannelDto): ChannelInput {
  const echoed: Record<string, unknown> = {};
  if (channel) {
    const source = channel as unknown as Record<string, unknown>;
    for (const key of ECHOED_FIELDS) if (key in source) echoed[key] = source[key];
  }
  const token = values.tokenTelegram.trim();
  const wavoipToken = normaliseTokenList(values.wavoipToken);
  const flags = Object.fromEntries(CHANNEL_FLAG_KEYS.map((key) => [key, flag(values.flags[key])]));
  return {
    ...(echoed as Partial<ChannelInput>),
    name: values.name.trim(),
    type: values.type,
    ...(values.type === 'telegram' && token ? { tokenTelegram: token } : {}),
    isDefault: values.isDefault,
    queueId: idOrNull(values.queueId),
    userId: idOrNull(values.userId),
    farewellMessage: textOrNull(values.farewellMessage),
    closeKeyWord: textOrNull(values.closeKeyWord),
    birthdayDateMessage: textOrNull(values.birthdayDateMessage),
    birthdayDateHour: values.birthdayDateHour === null ? null : Number(values.birthdayDateHour),
    ...(wavoipToken ? { wavoipToken } : {}),
    ...flags,
    integrations: integrationsInput(values, channel),
  };
}

/** Server codes that belong to one field (shown under it, besides the toast). */
export const FIELD_OF_CODE: Record<string, 'tokenTelegram' | 'type' | 'name'> = {
  ERR_TELEGRAM_TOKEN_REQUIRED: 'tokenTelegram',
  ERR_CHANNEL_TYPE_UNSUPPORTED: 'type',
};
