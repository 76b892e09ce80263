/**
 * The ChannelAdapter interface: what every provider (Telegram now; WhatsApp Cloud, gateways, Meta later) offers the
 * rest of the server. Adapters translate only: no database, no business rules. The registry (channels.registry.ts) is
 * the only switch on channel type.
 */
import type { ChannelStatus, ChannelType, MessageMediaType, OutboundPayload } from '@conversa/shared';

/** The channel facts an adapter needs (secrets included; never sent to clients). */
export interface ChannelCredentials {
  id: number;
  tenantId: number;
  type: ChannelType;
  name: string;
  number: string | null;
  tokenTelegram: string | null;
  tokenAPI: string | null;
  wabaId: string | null;
  bmToken: string | null;
  wabaVersion: string;
  /** Gateway channels (Evolution, Wuzapi): the gateway's API base URL. */
  remotePath: string | null;
  webhookSecret: string;
  /** Meta channels: the app secret of their webhooks' signatures (null: the installation's META_APP_SECRET). */
  metaAppSecret?: string | null;
  providerState: Record<string, unknown>;
  /** The channel's proxy (browser sessions: whatsapp-web.js), when set. */
  proxy?: { url: string; user: string | null; pass: string | null } | null;
  /** Where the channel's new tickets go (ingestion reads it from here instead of the channel row again). */
  routing: { queueId: number | null; userId: number | null };
  /** The channel's history import options (QR sessions: the history a login brings); null when importMessages is off. */
  historyImport?: HistoryImportOptions | null;
}

/**
 * What a QR session imports of the history WhatsApp sends after a login (client-contract §20.5 import fields). Group
 * chats: `importOldMessagesGroups` ("import old group messages") is the switch; `importGroupMessages` is read as the
 * same switch (either one on imports the groups' history; the live group messages are always received).
 */
export interface HistoryImportOptions {
  /** Oldest and newest message time imported, epoch ms (importOldMessages, importRecentMessages); null: no bound. */
  from: number | null;
  to: number | null;
  groups: boolean;
  /** Queue of the tickets the import creates (queueIdImportMessages); null: the channel's own routing. */
  queueId: number | null;
  /** Close the tickets the import created once it ends (closedTicketsPostImported). */
  closeTickets: boolean;
}

export interface AdapterCapabilities {
  edit: boolean;
  delete: boolean;
  react: boolean;
  /** Session lifecycle with a QR code (unofficial gateways). */
  qrcode: boolean;
  /** Send kinds the provider accepts. */
  media: readonly MessageMediaType[];
  /** Inbound media is downloaded only on the node that runs the channel's session (its media jobs go there). */
  mediaOnOwner?: boolean;
}

/** Who wrote: the provider's chat (ticket contact) and, in groups, the participant. */
export interface InboundParty {
  /** Provider id of the chat (Telegram chat id, WhatsApp jid digits, ...). */
  chatId: string;
  isGroup: boolean;
  /** Display name of the chat (person or group title). */
  name: string;
  /** E.164 digits when the provider gives a phone number (WhatsApp); null for id-only channels. */
  number: string | null;
  /** Which contact field carries chatId for id-only channels. */
  idField: 'telegramId' | 'messengerId' | 'instagramPK' | 'number';
  username?: string | null;
  profilePicUrl?: string | null;
  /** The group member who wrote (groups only). */
  participant?: { id: string; name: string; number: string | null; idField: InboundParty['idField'] } | null;
}

export interface InboundMedia {
  /** Provider file reference (Telegram file_id); downloaded later by the media job. */
  ref: string;
  mime: string | null;
  name: string | null;
  size: number | null;
}

export type InboundEvent =
  | {
      kind: 'message';
      providerMessageId: string;
      party: InboundParty;
      fromMe: boolean;
      /** Provider time, epoch ms. */
      timestamp: number;
      mediaType: MessageMediaType;
      body: string;
      media: InboundMedia | null;
      isSticker?: boolean;
      /** Location `{latitude, longitude, name?}` or vCard, serialised. */
      meta?: string | null;
      quotedProviderMessageId: string | null;
      /** History imported at a login: stored read, not announced, no unread count, no notification (syncTime). */
      imported?: true;
    }
  | {
      kind: 'ack';
      providerMessageId: string;
      ack: 1 | 2 | 3 | 4;
      timestamp: number;
      /** WhatsApp Cloud API statuses: the conversation and pricing category Meta billed the message under. */
      pricing?: { category: string | null; conversationId: string | null } | null;
      /**
       * The id the provider's network gave the message, when the status names one beside `providerMessageId` (the
       * NotificaMe hub: its later statuses come under new ids and name the message by this one alone).
       */
      alias?: string | null;
    }
  /**
   * The provider refused a message it had accepted (a Cloud API `failed` status, a hub REJECTED): the message is
   * marked undelivered with `error` (shown on its bubble); a later ack does not move it back.
   */
  | { kind: 'send-failed'; providerMessageId: string; error: string; timestamp: number; alias?: string | null }
  /**
   * The customer read everything we sent them in this chat up to `watermark` (epoch ms): Messenger's read receipt,
   * which names no message. Our sent or delivered messages of that chat created until then become read (ack 3).
   */
  | { kind: 'read-up-to'; party: InboundParty; watermark: number }
  | { kind: 'edit'; providerMessageId: string; party: InboundParty; body: string; timestamp: number }
  | { kind: 'delete'; providerMessageId: string; timestamp: number }
  | { kind: 'reaction'; providerMessageId: string; party: InboundParty; reaction: string; timestamp: number }
  | { kind: 'contact'; party: InboundParty }
  | {
      kind: 'session';
      status: ChannelStatus;
      qrcode?: string | null;
      /** Status PAIRING: the code the user types on the phone. */
      pairingCode?: string | null;
      /** Status CONNECTED: the connected number (digits) and the profile picture, when the provider tells. */
      number?: string | null;
      profilePicUrl?: string | null;
    }
  /** History sync after a login ('loadingscreen' toasts), 0..100; 100 is followed by 'readySession'. */
  | { kind: 'session-sync'; percent: number }
  | { kind: 'battery'; battery: number; plugged: boolean | null }
  /**
   * The login's history import (channel option importMessages): sent before each batch of imported message events
   * with `total` = history messages handed over so far (that batch included), and once with `done` at the end.
   */
  | { kind: 'history-import'; total: number; done: boolean };

/** What to send: text or one media file, optionally replying to a provider message. */
export interface OutboundMessage {
  /** Provider chat id of the ticket's contact (telegramId, number, ...). */
  to: string;
  /** The contact is a group (providers that address groups differently: the Cloud API's `recipient_type`). */
  toGroup?: boolean;
  body: string;
  mediaType: MessageMediaType;
  media: { data: Buffer; mime: string; name: string } | null;
  /**
   * The stored file's signed public link (PUBLIC_URL/api/media/<token>, valid 1 h) when the message has media:
   * providers that fetch files themselves (the NotificaMe hub) send this instead of the bytes.
   */
  mediaUrl?: string | null;
  replyToProviderMessageId: string | null;
  /**
   * The same for every attempt of one stored message: providers that let the sender choose the message id (WhatsApp
   * sessions) send it under this id, so an attempt repeated after a crash (the provider took it, the process died
   * before the id was stored) is the same message to WhatsApp, not a second one.
   */
  clientMessageId?: string;
  /** Official channels: a template, buttons, a list or a file by URL instead of (or around) the body and media. */
  payload?: OutboundPayload | null;
  /**
   * Official channels: whether the customer-service window (24 h after the customer's last message) is open.
   * Messenger and Instagram send with the HUMAN_AGENT tag when it is closed; undefined for other channels.
   */
  windowOpen?: boolean;
}

/**
 * The text that goes with a file: clients send a file's original name as the body of its message (client-contract
 * §5.2 media, and recorded audio `<epoch>.mp3`), which is no text for the customer; anything else the agent wrote is.
 */
export function captionOf(message: Pick<OutboundMessage, 'body' | 'media'>): string {
  const body = message.body.trim();
  return body && body !== message.media?.name ? message.body : '';
}

export interface SendResult {
  providerMessageId: string;
  ack: 0 | 1 | 2 | 3;
  timestamp: number;
}

/** Thrown by adapters: `permanent` means retrying cannot help (bad token, chat gone, message too old). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface StartOptions {
  /** QR gateways: log in with a pairing code for this number (digits) instead of a QR code. */
  pairingNumber?: string | null;
  /**
   * Evolution: the gateway's key is the installation's, held by other companies too (channels.shared-gateway.ts).
   * The instance is then one the adapter creates under an unguessable name; an existing one is never adopted.
   */
  sharedGateway?: boolean;
}

export interface StartResult {
  number: string | null;
  name?: string;
  providerState: Record<string, unknown>;
  status?: Extract<ChannelStatus, 'CONNECTED' | 'OPENING' | 'qrcode' | 'PAIRING'>;
  qrcode?: string | null;
  pairingCode?: string | null;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody?: Buffer;
}

/** A signature over a webhook's raw body, computed as the body streams (channels.webhooks.spool.ts). */
export interface BodySignature {
  update(chunk: Buffer): void;
  /** Whether the bytes given so far are the signed body (call once, after the last chunk). */
  matches(): boolean;
}

export interface NumberCheck {
  exists: boolean;
  /** The number WhatsApp knows (digits, ninth digit resolved), when it exists. */
  number: string | null;
}

export interface GroupParticipant {
  /** Digits of the member's number (the phone number when a LID was resolved). */
  number: string;
  name: string | null;
  isAdmin: boolean;
}

/**
 * What a WhatsApp gateway (Evolution, Wuzapi) offers beyond messages: the live operations of a session, over the
 * gateway's HTTP API. The gateway holds the session, so these run on any node (nothing to own) with the channel's
 * credentials; the meaning of each is LiveSession's (sessions/session-driver.ts). Failures are ProviderErrors. An
 * operation the gateway's API cannot do is left out (the route answers ERR_CHANNEL_TYPE_UNSUPPORTED).
 */
export interface GatewayLive {
  checkNumber(number: string): Promise<NumberCheck>;
  /** The members of a group (chat id = the group's id as stored on its contact, with or without `@g.us`). */
  groupParticipants?(groupId: string): Promise<GroupParticipant[]>;
  /** The groups the number belongs to (`id` as the group's contact stores it). */
  listGroups?(): Promise<{ id: string; subject: string; participants: number }[]>;
  /** The phone's contacts the gateway knows (numbers in digits, the ninth-digit rule applied). */
  listContacts?(): Promise<{ number: string; name: string | null }[]>;
  /**
   * Up to `limit` older messages of one chat (`chatId` as the ticket's contact stores it: digits, or a group id), or
   * of every chat when null, as ordinary `message` events (not marked `imported`: like a session's on-demand history,
   * POST /messages/syncOld). The caller hands them to ingestion, which stores a message it already has only once.
   * Any order; the caller does not rely on it.
   */
  fetchHistory?(chatId: string | null, limit: number): Promise<InboundEvent[]>;
  /** A text that mentions these numbers (digits); `body` already carries visible @tags when they are wanted. */
  sendMention?(to: string, body: string, mentions: string[]): Promise<SendResult>;
}

export interface ChannelAdapter {
  readonly type: ChannelType;
  readonly capabilities: AdapterCapabilities;
  /** True when the request carries this channel's secret/signature. Constant-time compare. */
  verifyInbound(channel: ChannelCredentials, request: WebhookRequest): boolean;
  /**
   * Gateways, whose webhooks may be large (GATEWAY_CHANNEL_TYPES): the credential checked before the body is read,
   * either a header secret (`verifyHeaders`, Evolution) or a signature over the body computed while it streams
   * (`bodySignature`, Wuzapi; null when the request carries none). `verifyInbound` still runs on the whole request.
   */
  verifyHeaders?(channel: ChannelCredentials, headers: WebhookRequest['headers']): boolean;
  bodySignature?(channel: ChannelCredentials, headers: WebhookRequest['headers']): BodySignature | null;
  /** Normalised events of one webhook call; throws a zod error (→ 400) on a malformed payload. */
  parseInbound(channel: ChannelCredentials, body: unknown): InboundEvent[];
  send(channel: ChannelCredentials, message: OutboundMessage): Promise<SendResult>;
  edit(channel: ChannelCredentials, to: string, providerMessageId: string, body: string): Promise<void>;
  delete(channel: ChannelCredentials, to: string, providerMessageId: string): Promise<void>;
  react(channel: ChannelCredentials, to: string, providerMessageId: string, emoji: string): Promise<void>;
  downloadMedia(
    channel: ChannelCredentials,
    ref: string,
    maxBytes: number,
  ): Promise<{ data: Buffer; mime: string | null; name: string | null }>;
  /**
   * Connect: validate credentials, register the webhook; returns what to store in providerState and the number.
   * `status` (default CONNECTED) is where the channel stands when start returns: a QR gateway answers `qrcode` (with
   * the code) or OPENING, and its later states arrive as session events.
   */
  start(channel: ChannelCredentials, webhookUrl: string, options?: StartOptions): Promise<StartResult>;
  /** Disconnect: unregister the webhook. */
  stop(channel: ChannelCredentials): Promise<void>;
  /** Gateways only: the live session operations of this channel over the gateway's API (see GatewayLive). */
  live?(channel: ChannelCredentials): GatewayLive;
  /**
   * Optional: completes a webhook's parsed events before they are stored (Messenger/Instagram fill contact names and
   * pictures from the User Profile API). Called by the intake after the signature check; must not throw for a
   * lookup that failed (keep the event as parsed).
   */
  enrichInbound?(channel: ChannelCredentials, events: InboundEvent[]): Promise<InboundEvent[]>;
}
