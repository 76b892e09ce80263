/**
 * Channel rows to the wire shapes of packages/shared (client-contract §20.5): secrets never leave the server; the
 * DTO names which of them are set (`configuredSecrets`), so a form can show "saved" without the value.
 */
import {
  CHANNEL_FLAG_KEYS,
  CHANNEL_SECRET_FIELDS,
  isAdminProfile,
  META_CHANNEL_TYPES,
  READABLE_INTEGRATION_KEYS,
  SECRET_INTEGRATION_KEYS,
  type ChannelDto,
  type ChannelFlagKey,
  type ChannelSessionState,
  type EnabledFlag,
  type Profile,
} from '@conversa/shared';
import type { ChannelCredentials } from './channels.adapter.js';
import type { ChannelRow } from './channels.repository.js';
import { metaVerifyTokenOf } from './providers/meta/meta.signature.js';

/** The Meta channels' own webhook URL (on PUBLIC_URL) and verify token, to paste into Meta's dashboard. */
function metaWebhook(row: ChannelRow, publicUrl: string): ChannelDto['metaWebhook'] {
  if (!(META_CHANNEL_TYPES as readonly string[]).includes(row.type)) return null;
  return {
    url: `${publicUrl.replace(/\/+$/, '')}/api/webhooks/${row.type}/${row.id}`,
    verifyToken: metaVerifyTokenOf(row.webhookSecret),
  };
}

/** An allow-list: a stored key that is not declared readable (a new one, a stale one) stays on the server. */
function publicIntegrations(row: ChannelRow): ChannelDto['integrations'] {
  const readable = new Set<string>(READABLE_INTEGRATION_KEYS);
  return Object.fromEntries(Object.entries(row.integrations).filter(([key]) => readable.has(key)));
}

function configuredSecrets(row: ChannelRow): string[] {
  const fields = CHANNEL_SECRET_FIELDS.filter((field) => Boolean(row[field]));
  const keys = SECRET_INTEGRATION_KEYS.filter((key) => Boolean(row.integrations[key]));
  return [...fields, ...keys];
}

const flags = (row: ChannelRow) =>
  Object.fromEntries(CHANNEL_FLAG_KEYS.map((key) => [key, row[key]])) as Record<ChannelFlagKey, EnabledFlag>;

/** The channel as clients read it; `publicUrl` is the server's PUBLIC_URL (the Meta webhook's address). */
export function toChannelDto(row: ChannelRow, publicUrl: string): ChannelDto {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    type: row.type,
    number: row.number,
    status: row.status,
    qrcode: row.qrcode,
    pairingCode: row.pairingCode,
    retries: row.retries,
    profilePic: row.profilePic,
    isDefault: row.isDefault,
    isActive: row.isActive,
    queueId: row.queueId,
    userId: row.userId,
    chatFlowId: row.chatFlowId,
    wabaId: row.wabaId,
    wabaVersion: row.wabaVersion,
    wabaBSP: row.wabaBSP,
    instagramUser: row.instagramUser,
    wppUser: row.wppUser,
    proxyUrl: row.proxyUrl,
    proxyUser: row.proxyUser,
    webversion: row.webversion,
    remotePath: row.remotePath,
    farewellMessage: row.farewellMessage,
    closeKeyWord: row.closeKeyWord,
    webhook: row.webhook,
    birthdayDateMessage: row.birthdayDateMessage,
    birthdayDateHour: row.birthdayDateHour,
    bDateFileName: row.bDateFileName,
    importOldMessages: row.importOldMessages?.toISOString() ?? null,
    importRecentMessages: row.importRecentMessages?.toISOString() ?? null,
    queueIdImportMessages: row.queueIdImportMessages,
    ...flags(row),
    distribution: row.distribution,
    integrations: publicIntegrations(row),
    configuredSecrets: configuredSecrets(row),
    metaWebhook: metaWebhook(row, publicUrl),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toSessionState(row: ChannelRow): ChannelSessionState {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    status: row.status,
    qrcode: row.qrcode,
    pairingCode: row.pairingCode,
    retries: row.retries,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Who may connect channels: the session routes' rule (`requireProfile(request, 'admin')`: admins and the superadmin;
 * supervisors manage nothing of a session). A QR code or pairing code is a credential (scanning it links the
 * company's WhatsApp to whoever holds it): only these profiles receive them, in the DTO and in channel events.
 */
export const mayConnectChannels = (profile: Profile): boolean => isAdminProfile(profile);

/** The same shape with the codes null (the DTO keeps its fields: clients read null as "no code now"). */
export function withoutConnectCodes<T extends { qrcode: string | null; pairingCode: string | null }>(value: T): T {
  return { ...value, qrcode: null, pairingCode: null };
}

/** A channel DTO or session state as the caller's profile may read it. */
export function connectCodesFor<T extends { qrcode: string | null; pairingCode: string | null }>(
  profile: Profile,
  value: T,
): T {
  return mayConnectChannels(profile) ? value : withoutConnectCodes(value);
}

/** What an adapter needs, secrets included: never serialised to a client. */
export function toCredentials(row: ChannelRow): ChannelCredentials {
  return {
    id: row.id,
    tenantId: row.tenantId,
    type: row.type,
    name: row.name,
    number: row.number,
    tokenTelegram: row.tokenTelegram,
    tokenAPI: row.tokenAPI,
    wabaId: row.wabaId,
    bmToken: row.bmToken,
    wabaVersion: row.wabaVersion,
    remotePath: row.remotePath,
    webhookSecret: row.webhookSecret,
    metaAppSecret: row.metaAppSecret,
    providerState: row.providerState,
    proxy: row.proxyUrl ? { url: row.proxyUrl, user: row.proxyUser, pass: row.proxyPass } : null,
    routing: { queueId: row.queueId, userId: row.userId },
    historyImport: historyImportOf(row),
  };
}

/** H8 (history import): the channel's import options as drivers and ingestion read them; null when off. */
function historyImportOf(row: ChannelRow): ChannelCredentials['historyImport'] {
  if (row.importMessages !== 'enabled') return null;
  return {
    from: row.importOldMessages?.getTime() ?? null,
    to: row.importRecentMessages?.getTime() ?? null,
    groups: row.importOldMessagesGroups === 'enabled' || row.importGroupMessages === 'enabled',
    queueId: row.queueIdImportMessages,
    closeTickets: row.closedTicketsPostImported === 'enabled',
  };
}
