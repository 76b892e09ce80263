/** The channel form (product-spec §5 "Channel"): its values, their checks and the POST/PUT body (channelInputSchema). */
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import {
  CHANNEL_FLAG_KEYS,
  CHANNEL_INTEGRATION_KEYS,
  CHANNEL_SECRET_FIELDS,
  channelInputSchema,
  SECRET_INTEGRATION_KEYS,
  isHubChannelType,
  META_CHANNEL_TYPES,
  SUPPORTED_CHANNEL_TYPES,
  type ChannelDto,
  type ChannelFlagKey,
  type ChannelInput,
  type ChannelIntegrationKey,
  type ChannelType,
  type DistributionMode,
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
/** Meta's official APIs (decisions of issue 15): credentials typed here, webhooks pasted into Meta's dashboard. */
export const isMetaType = (type: ChannelType): boolean => (META_CHANNEL_TYPES as readonly ChannelType[]).includes(type);
/** NotificaMe hub channels are created from /configuracoes/hub, never from this form. */
export const isHubType = (type: ChannelType): boolean => isHubChannelType(type);
/** The Graph API version field: digits, a dot, digits ("20.0" becomes the URL segment v20.0). */
export const WABA_VERSION_PATTERN = /^\d{1,3}\.\d{1,2}$/;
export const DEFAULT_WABA_VERSION = '20.0';

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
  /**
   * Wuzapi: the instance id (Evolution derives it from the name). Meta types: the phone number id (waba), the
   * Facebook page id (messenger) or the Instagram account id (instagram).
   */
  wabaId: string;
  /** waba: the Graph API version ("20.0"). */
  wabaVersion: string;
  /** waba: the WhatsApp Business Account id; write-only like the token. */
  bmToken: string;
  /** Meta types: the app secret that signs the webhooks; write-only. */
  metaAppSecret: string;
  /** waba: the display number a successful verification returned (digits); sent as the channel's number. */
  number: string;
  /** History import (QR types): first and last day (YYYY-MM-DD) and the queue of the imported tickets. */
  importOldMessages: string | null;
  importRecentMessages: string | null;
  queueIdImportMessages: string | null;
  isDefault: boolean;
  /** Ids as strings (Select values). */
  queueId: string | null;
  userId: string | null;
  /** The flow that answers the channel's new conversations (client-contract §20.5 `chatFlowId`). */
  chatFlowId: string | null;
  /** How new unassigned tickets go to online users; the `selfDistribute` flag follows it (enabled unless N). */
  distribution: DistributionMode;
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
  'chatFlowId',
  'distribution',
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
    wabaVersion: channel?.wabaVersion || DEFAULT_WABA_VERSION,
    bmToken: '',
    metaAppSecret: '',
    number: channel?.number ?? '',
    importOldMessages: dayOf(channel?.importOldMessages),
    importRecentMessages: dayOf(channel?.importRecentMessages),
    queueIdImportMessages: channel?.queueIdImportMessages != null ? String(channel.queueIdImportMessages) : null,
    isDefault: channel?.isDefault ?? false,
    queueId: channel?.queueId != null ? String(channel.queueId) : null,
    userId: channel?.userId != null ? String(channel.userId) : null,
    chatFlowId: channel?.chatFlowId != null ? String(channel.chatFlowId) : null,
    distribution: channel?.distribution ?? 'N',
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
  if (isMetaType(values.type)) Object.assign(errors, validateMeta(values, typeChanged ? undefined : channel, t));
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

/**
 * waba: the phone number id and a well-formed version (the token may stay empty: the tenant's WhatsApp token is
 * used). Messenger and Instagram: the id and the token come together, or neither (the page is then connected with
 * Facebook login data once the channel is saved).
 */
function validateMeta(values: ChannelFormValues, channel: ChannelDto | undefined, t: TFunction) {
  const errors: Record<string, string> = {};
  const id = values.wabaId.trim();
  const idLabel = t(`channels.meta.${values.type}.wabaId`);
  if (values.type === 'waba') {
    if (!id) errors.wabaId = t('validation.required', { attribute: idLabel });
    else if (!/^\d+$/.test(id)) errors.wabaId = t('channels.meta.idDigits');
    if (!WABA_VERSION_PATTERN.test(values.wabaVersion.trim()))
      errors.wabaVersion = t('channels.meta.waba.versionInvalid');
    const bm = values.bmToken.trim();
    if (bm && !/^\d+$/.test(bm)) errors.bmToken = t('channels.meta.idDigits');
    return errors;
  }
  const token = values.tokenAPI.trim() !== '' || hasSecret(channel, 'tokenAPI');
  if (id && !/^\d+$/.test(id)) errors.wabaId = t('channels.meta.idDigits');
  else if (!id && token) errors.wabaId = t('validation.required', { attribute: idLabel });
  if (id && !token) errors.tokenAPI = t('channels.meta.pageTokenRequired');
  return errors;
}

/**
 * waba credentials differ from the stored ones (a new channel, another type, a typed secret, another id or version):
 * the form then asks for a successful verification before saving.
 */
export function wabaNeedsVerify(values: ChannelFormValues, channel?: ChannelDto): boolean {
  if (values.type !== 'waba') return false;
  if (channel?.type !== 'waba') return true;
  return (
    values.tokenAPI.trim() !== '' ||
    values.bmToken.trim() !== '' ||
    values.wabaId.trim() !== (channel.wabaId ?? '') ||
    values.wabaVersion.trim() !== channel.wabaVersion
  );
}

/** What a verification checked: a later change of any of these asks for a new one. */
export const wabaCredentialKey = (values: ChannelFormValues): string =>
  JSON.stringify([values.tokenAPI.trim(), values.wabaId.trim(), values.bmToken.trim(), values.wabaVersion.trim()]);

const textOrNull = (value: string) => value.trim() || null;
const idOrNull = (value: string | null) => (value ? Number(value) : null);
const flag = (on: boolean) => (on ? 'enabled' : 'disabled');

const startOfDay = (day: string | null) => (day ? dayjs(day).startOf('day').toISOString() : null);
const endOfDay = (day: string | null) => (day ? dayjs(day).endOf('day').toISOString() : null);

/** Evolution: the instance is fixed at creation (the stripped name); Wuzapi: as typed; other types: as stored. */
function instanceInput(values: ChannelFormValues, channel: ChannelDto | undefined, name: string): string | null {
  if (values.type === 'evo') return channel?.type === 'evo' ? channel.wabaId : name;
  if (values.type === 'meow' || isMetaType(values.type)) return textOrNull(values.wabaId);
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
  const meta = isMetaType(values.type);
  return {
    name,
    remotePath: gateway ? textOrNull(values.remotePath) : (channel?.remotePath ?? null),
    wabaId: instanceInput(values, channel, name),
    ...((gateway || meta) && tokenAPI ? { tokenAPI } : {}),
    ...(meta ? metaInput(values) : {}),
    importOldMessages: qr ? startOfDay(values.importOldMessages) : (channel?.importOldMessages ?? null),
    importRecentMessages: qr ? endOfDay(values.importRecentMessages) : (channel?.importRecentMessages ?? null),
    queueIdImportMessages: qr ? idOrNull(values.queueIdImportMessages) : (channel?.queueIdImportMessages ?? null),
  };
}

/** Meta fields: the version and the verified number (waba), and the secrets typed (an empty one keeps the stored). */
function metaInput(values: ChannelFormValues): Partial<ChannelInput> {
  const bmToken = values.bmToken.trim();
  const metaAppSecret = values.metaAppSecret.trim();
  return {
    ...(values.type === 'waba'
      ? { wabaVersion: values.wabaVersion.trim(), number: textOrNull(values.number.replace(/\D/g, '')) }
      : {}),
    ...(values.type === 'waba' && bmToken ? { bmToken } : {}),
    ...(metaAppSecret ? { metaAppSecret } : {}),
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
  // The switch the reference client knows follows the mode, so both say the same (decisions §B).
  flags.selfDistribute = flag(values.distribution !== 'N');
  return {
    ...(echoed as Partial<ChannelInput>),
    type: values.type,
    ...typeFieldsInput(values, channel),
    ...(values.type === 'telegram' && token ? { tokenTelegram: token } : {}),
    isDefault: values.isDefault,
    queueId: idOrNull(values.queueId),
    userId: idOrNull(values.userId),
    chatFlowId: idOrNull(values.chatFlowId),
    distribution: values.distribution,
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
export const FIELD_OF_CODE: Record<string, 'tokenTelegram' | 'type' | 'name' | 'verify'> = {
  ERR_TELEGRAM_TOKEN_REQUIRED: 'tokenTelegram',
  ERR_CHANNEL_TYPE_UNSUPPORTED: 'type',
  ERR_WABA_DATA_INVALID: 'verify',
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
/** The fields of the credentials tab of Meta channels (`verify`: the waba verification still missing). */
export const META_FIELDS: ReadonlySet<string> = new Set([
  'tokenAPI',
  'wabaId',
  'wabaVersion',
  'bmToken',
  'metaAppSecret',
  'verify',
]);
