/**
 * Stateful sessions (Baileys, whatsapp-web.js): unlike webhook providers, the connection to WhatsApp is a long-lived
 * socket (or browser) run by one server process, the lease owner (sessions/session-host.ts). A driver opens such a
 * session for a channel and translates between the library and the normalized events; like an adapter it holds no
 * database and no business rules: auth state goes through `SessionContext.auth`, events through `emit`.
 */
import type { Logger } from 'pino';
import type { ChannelType } from '@conversa/shared';
import type {
  ChannelCredentials,
  GroupParticipant,
  InboundEvent,
  NumberCheck,
  OutboundMessage,
  SendResult,
} from '../channels.adapter.js';

export type { GroupParticipant, NumberCheck } from '../channels.adapter.js';

/** A session's auth state as opaque strings per key (the driver serializes); stored encrypted per channel. */
export interface AuthStateStore {
  read(keys: string[]): Promise<Map<string, string>>;
  /** A null value deletes the key. One transaction per call. */
  write(entries: Map<string, string | null>): Promise<void>;
  /** Forgets everything (logout): the next open starts a new QR login. */
  clear(): Promise<void>;
}

export interface SessionContext {
  auth: AuthStateStore;
  /**
   * Hands events to the server: messages, acks, edits, deletes, reactions and contacts go to ingestion (the same
   * pipeline as webhooks), session, session-sync and battery events to the sessions service. Resolves once stored; a
   * driver awaits it before it acknowledges anything to the provider.
   */
  emit(events: InboundEvent[]): Promise<void>;
  /** Digits of the phone number for a pairing-code login; null for a QR login. */
  pairingNumber: string | null;
  /**
   * The session ended for good and the driver will not reconnect by itself: the host decides what follows (`lost`:
   * reconnect with backoff and count a retry; `logged-out`: the phone removed the device, clear the auth state and
   * stop; `timeout`: nobody scanned the QR in time, stop; `conflict`: another client took the session, stop).
   */
  closed(reason: SessionCloseReason): void;
  /** The tenant's call settings (`rejectCalls`, `callRejectMessage`), read when a call arrives. */
  callPolicy(): Promise<{ reject: boolean; message: string }>;
  logger: Logger;
}

export type SessionCloseReason = 'lost' | 'logged-out' | 'timeout' | 'conflict';

/** One open session. Calls fail with a ProviderError (transient while not connected). */
export interface LiveSession {
  send(message: OutboundMessage): Promise<SendResult>;
  edit(to: string, providerMessageId: string, body: string): Promise<void>;
  delete(to: string, providerMessageId: string): Promise<void>;
  react(to: string, providerMessageId: string, emoji: string): Promise<void>;
  downloadMedia(ref: string, maxBytes: number): Promise<{ data: Buffer; mime: string | null; name: string | null }>;
  checkNumber(number: string): Promise<NumberCheck>;
  /** Unlinks the device (the phone forgets it) and clears the auth state. */
  logout(): Promise<void>;
  // What only a live WhatsApp session offers (groups, the phone's contacts, older history). Optional: a driver without
  // one answers ERR_CHANNEL_TYPE_UNSUPPORTED to the caller.
  /** The members of a group (chat id = the group's id as stored on its contact). */
  groupParticipants?(groupId: string): Promise<GroupParticipant[]>;
  /** The groups the number belongs to. */
  listGroups?(): Promise<{ id: string; subject: string; participants: number }[]>;
  /** The phone's contacts the session knows (numbers in digits, the ninth-digit rule applied). */
  listContacts?(): Promise<{ number: string; name: string | null }[]>;
  /**
   * Asks for up to `limit` older messages of one chat (or of every chat when `chatId` is null); they arrive through
   * `emit` as message events like any other (a re-delivered one is stored once). Resolves with how many were asked for.
   */
  requestHistory?(chatId: string | null, limit: number): Promise<number>;
  /** A text that mentions these numbers (`visible`: the body carries the @tags; otherwise a silent "ghost" mention). */
  sendMention?(to: string, body: string, mentions: string[]): Promise<SendResult>;
  /**
   * The URL of a chat's current profile picture (chat id = a number's digits or a JID, as stored on its contact), as
   * WhatsApp gives it: a short-lived signed link of its CDN. Null when the chat has no picture or hides it (privacy).
   */
  profilePicture?(chatId: string): Promise<string | null>;
  /** Closes the connection and keeps the auth state (the lease moved, the process stops). */
  close(): Promise<void>;
}

export interface SessionDriver {
  readonly type: Extract<ChannelType, 'baileys' | 'whatsapp'>;
  /**
   * True when media can only be downloaded through the live session (whatsapp-web.js): the media jobs of its channels
   * then run in the session's queue, on the owner, like sends.
   */
  readonly mediaNeedsSession?: boolean;
  /** Opens the session with the stored auth state; resolves once started (connected or not: states are emitted). */
  open(channel: ChannelCredentials, context: SessionContext): Promise<LiveSession>;
  /**
   * Downloads an inbound message's media without the live session (the media job runs on any node): the ref holds
   * everything the download needs (URL, keys). Throws a ProviderError (permanent when the media is gone).
   */
  downloadMedia(ref: string, maxBytes: number): Promise<{ data: Buffer; mime: string | null; name: string | null }>;
}
