/** The channel form (product-spec §5 "Channel"): its values, their checks and the POST/PUT body (channelInputSchema). */
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
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
import { isHttpUrl } from '../../../lib/tenant-gateways';

/** WhatsApp by QR code (product-spec §1): a session the user logs in with a QR code or a pairing code. */
export const QR_CHANNEL_TYPES: readonly ChannelType[] = ['baileys', 'whatsapp', 'evo', 'meow'];
/** QR types reached through a gateway's REST API: base URL, key/token and instance per channel. */
export const GATEWAY_CHANNEL_TYPES: readonly ChannelType[] = ['evo', 'meow'];
/** The history import switches (the import tab of QR types). */
export const IMPORT_FLAGS: readonly ChannelFlagKey[] = [
  'importMessages',
  'importGroupMessages',
  'importOldMessagesGroups',
  'closedTicketsPostImported',
];
export const isQrType = (type: ChannelType): boolean => QR_CHANNEL_TYPES.includes(type);
export const isGatewayType = (type: ChannelType): boolean => GATEWAY_CHANNEL_TYPES.includes(type);

/** The Evolution instance name: the channel name with everything but [A-Za-z0-9] removed (product-spec §5). */
export const evoInstanceName = (name: string): string => name.replace(/[^A-Za-z0-9]/g, '');

export interface ChannelFormValues {
  type: ChannelType;
  name: string;
  /** Empty on edit keeps the stored token. */
  tokenTelegram: string;
  /** Gateways: the API URL. */
  remotePath: string;
  /** Gateways: the Evolution API key or the Wuzapi user token; write-only, empty on edit keeps the stored one. */
  tokenAPI: string;
  /** Wuzapi: the instance id (Evolution derives it from the name). */
  wabaId: string;
  /** History import (QR types): first and last day (YYYY-MM-DD) and the queue of the imported tickets. */
  importOldMessages: string | null;
  importRecentMessages: string | null;
  queueIdImportMessages: string | null;
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
  'remotePath',
  'tokenAPI',
  'wabaId',
  'importOldMessages',
  'importRecentMessages',
  'queueIdImportMessages',
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
/** The types the add form offers; tests pass others in (the shared list grows as the server learns them). */
export type SupportedTypes = readonly ChannelType[];
export const isSupportedType = (type: ChannelType, supported: SupportedTypes = SUPPORTED_CHANNEL_TYPES): boolean =>
  supported.includes(type);

/** A secret the server holds for this channel: the field may stay empty to keep it. */
export const hasSecret = (channel: ChannelDto | undefined, field: string): boolean =>
  channel?.configuredSecrets.includes(field) ?? false;

const dayOf = (iso: string | null | undefined): string | null => {
  if (!iso) return null;
  const date = dayjs(iso);
  return date.isValid() ? date.format('YYYY-MM-DD') : null;
};

export function channelToValues(
  channel?: ChannelDto,
  supported: SupportedTypes = SUPPORTED_CHANNEL_TYPES,
): ChannelFormValues {
  const flags = Object.fromEntries(
    CHANNEL_FLAG_KEYS.map((key) => [key, channel ? channel[key] === 'enabled' : false]),
  ) as Record<ChannelFlagKey, boolean>;
  const integrations = Object.fromEntries(
    CHANNEL_INTEGRATION_KEYS.map((key) => [key, channel?.integrations[key] ?? '']),
  ) as Record<ChannelIntegrationKey, string>;
  return {
    type: channel?.type ?? supported[0] ?? 'telegram',
    name: channel?.name ?? '',
    tokenTelegram: '',
    remotePath: channel?.remotePath ?? '',
    tokenAPI: '',
    wabaId: channel?.wabaId ?? '',
    importOldMessages: dayOf(channel?.importOldMessages),
    importRecentMessages: dayOf(channel?.importRecentMessages),
    queueIdImportMessages: channel?.queueIdImportMessages != null ? String(channel.queueIdImportMessages) : null,
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
  supported: SupportedTypes = SUPPORTED_CHANNEL_TYPES,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = t('validation.required', { attribute: t('channels.form.name') });
  else if (values.type === 'evo' && !channel && !evoInstanceName(values.name)) {
    errors.name = t('channels.form.evoNameInvalid');
  }
  const typeChanged = channel?.type !== values.type;
  if (typeChanged && !isSupportedType(values.type, supported)) errors.type = t('errors.ERR_CHANNEL_TYPE_UNSUPPORTED');
  const keepsToken = !typeChanged && hasSecret(channel, 'tokenTelegram');
  if (values.type === 'telegram' && !values.tokenTelegram.trim() && !keepsToken) {
    errors.tokenTelegram = t('errors.ERR_TELEGRAM_TOKEN_REQUIRED');
  }
  if (isGatewayType(values.type)) Object.assign(errors, validateGateway(values, typeChanged ? undefined : channel, t));
  if (isQrType(values.type)) {
    const { importOldMessages: start, importRecentMessages: end } = values;
    if (start && end && end < start) errors.importRecentMessages = t('channels.form.importEndBeforeStart');
  }
  return errors;
}

function validateGateway(values: ChannelFormValues, channel: ChannelDto | undefined, t: TFunction) {
  const errors: Record<string, string> = {};
  const url = values.remotePath.trim();
  if (!url) errors.remotePath = t('validation.required', { attribute: t('channels.form.remotePath') });
  else if (!isHttpUrl(url)) errors.remotePath = t('channels.form.remotePathInvalid');
  // Wuzapi knows its users by token; Evolution falls back to the tenant's API key.
  if (values.type === 'meow' && !values.tokenAPI.trim() && !hasSecret(channel, 'tokenAPI')) {
    errors.tokenAPI = t('channels.form.tokenApiRequired');
  }
  return errors;
}

const textOrNull = (value: string) => value.trim() || null;
const idOrNull = (value: string | null) => (value ? Number(value) : null);
const flag = (on: boolean) => (on ? 'enabled' : 'disabled');

const startOfDay = (day: string | null) => (day ? dayjs(day).startOf('day').toISOString() : null);
const endOfDay = (day: string | null) => (day ? dayjs(day).endOf('day').toISOString() : null);

/** Evolution: the instance is fixed at creation (the stripped name); Wuzapi: as typed; other types: as stored. */
function instanceInput(values: ChannelFormValues, channel: ChannelDto | undefined, name: string): string | null {
  if (values.type === 'evo') return channel?.type === 'evo' ? channel.wabaId : name;
  if (values.type === 'meow') return textOrNull(values.wabaId);
  return channel?.wabaId ?? null;
}

/** Gateway and import fields: typed for the types that show them, as stored (or empty) for the others. */
function typeFieldsInput(values: ChannelFormValues, channel?: ChannelDto): Partial<ChannelInput> & { name: string } {
  const gateway = isGatewayType(values.type);
  const evo = values.type === 'evo';
  // Evolution: the name is fixed once created, and the instance is the name without anything but letters and digits.
  const name = evo && channel?.type === 'evo' ? channel.name : evo ? evoInstanceName(values.name) : values.name.trim();
  const tokenAPI = values.tokenAPI.trim();
  const qr = isQrType(values.type);
  return {
    name,
    remotePath: gateway ? textOrNull(values.remotePath) : (channel?.remotePath ?? null),
    wabaId: instanceInput(values, channel, name),
    ...(gateway && tokenAPI ? { tokenAPI } : {}),
    importOldMessages: qr ? startOfDay(values.importOldMessages) : (channel?.importOldMessages ?? null),
    importRecentMessages: qr ? endOfDay(values.importRecentMessages) : (channel?.importRecentMessages ?? null),
    queueIdImportMessages: qr ? idOrNull(values.queueIdImportMessages) : (channel?.queueIdImportMessages ?? null),
  };
}

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
    type: values.type,
    ...typeFieldsInput(values, channel),
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

/** The fields of the general tab (a failed check there shows that tab); the others live in the import tab. */
export const GENERAL_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'name',
  'tokenTelegram',
  'remotePath',
  'tokenAPI',
  'wabaId',
]);
