/**
 * A stand-in for whatsapp-web.js' `Client` (tests only): an EventEmitter with the library's method names that records
 * every call and emits the library's own event payloads. Messages, reactions and calls are the library's own
 * structures (`Message`, `Reaction`, `Call` from whatsapp-web.js/src/structures) built from the raw WhatsApp Web model
 * the page hands the library (`t`, `notifyName`, `quotedStanzaID`, `directPath`, `lat`/`lng`/`loc`, `vcardList`, ...),
 * so the driver reads exactly the fields the library fills. Methods that would run in the page (edit, delete,
 * downloadMedia, reject) are replaced on each instance by recorded fakes; `react` is the library's own (it calls
 * `client.sendReaction`).
 *
 * Like the library: `message_create` comes before `message` (which only messages of others get), our own send echoes
 * as `message_create` before `sendMessage` resolves, `ready` follows `authenticated` with `info.wid` set.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type WAWebJS from 'whatsapp-web.js';
import type { WwebjsClient } from './wwebjs.client.js';

const require = createRequire(import.meta.url);
type Structure<T> = new (client: unknown, data: unknown) => T;
const structures = require('whatsapp-web.js/src/structures/index.js') as {
  Message: Structure<WAWebJS.Message>;
  Reaction: Structure<WAWebJS.Reaction>;
  Call: Structure<WAWebJS.Call>;
  MessageMedia: typeof WAWebJS.MessageMedia;
};

export interface RecordedCall {
  method: string;
  args: unknown[];
}

export interface RawKey {
  fromMe: boolean;
  remote: string;
  id: string;
  participant?: string;
  _serialized: string;
}

export const rawKey = (fromMe: boolean, remote: string, id: string, participant?: string): RawKey => ({
  fromMe,
  remote,
  id,
  ...(participant ? { participant } : {}),
  _serialized: `${fromMe}_${remote}_${id}${participant ? `_${participant}` : ''}`,
});

/** The raw WhatsApp Web message model (`window.WWebJS.getMessageModel`), the fields the library reads. */
export interface RawMessage {
  id: RawKey;
  type: string;
  t: number;
  from: string;
  to: string;
  author?: string;
  notifyName?: string;
  body?: string;
  caption?: string;
  ack?: number;
  directPath?: string;
  mediaKey?: string;
  mimetype?: string;
  filename?: string;
  size?: number;
  quotedMsg?: Record<string, unknown>;
  quotedStanzaID?: string;
  quotedParticipant?: string;
  lat?: number;
  lng?: number;
  loc?: string;
  vcardList?: { displayName: string; vcard: string }[];
  isStatusV3?: boolean;
  broadcast?: boolean;
  isViewOnce?: boolean;
  latestEditSenderTimestampMs?: number;
  protocolMessageKey?: RawKey;
  [field: string]: unknown;
}

let counter = 0;
export const newMessageId = () => `3EB0${(++counter).toString(16).toUpperCase().padStart(16, '0')}`;

/** A raw message from `from` (a person or, with `author`, a group) to the connected account. */
export function rawIncoming(partial: Partial<RawMessage> & { from: string }, me = '5511900000000@c.us'): RawMessage {
  const id = partial.id ?? rawKey(false, partial.from, newMessageId(), partial.author);
  return { type: 'chat', t: 1_750_000_000, to: me, body: '', ack: 1, ...partial, id };
}

export interface FakeClientState {
  /** Numbers on WhatsApp (digits as WhatsApp knows them). */
  registered: Set<string>;
  /** LID -> phone id, what `getContactLidAndPhone` answers. */
  lids: Map<string, string>;
  groups: Map<string, string>;
  /** What `getProfilePicUrl` answers for an id not in `pictures` (the session's own picture). */
  profilePicUrl: string | undefined;
  /** `getProfilePicUrl` per serialized chat id (undefined: the library's answer without a picture or with privacy). */
  pictures: Map<string, string | undefined>;
  /** Media bytes per serialized message id (`downloadMedia`). */
  media: Map<string, { mimetype: string; data: Buffer; filename?: string | null }>;
  initializeError: Error | null;
  /** The chats `getChats` answers: id, group flag and the raw history `fetchMessages` gives (oldest first). */
  chats: { id: string; isGroup: boolean; history: RawMessage[] }[];
}

export class FakeWwebjsClient extends EventEmitter implements WwebjsClient {
  readonly calls: RecordedCall[] = [];
  info: { wid: { user: string; server: string; _serialized: string } } | undefined;
  readonly messages = new Map<string, WAWebJS.Message>();
  readonly state: FakeClientState = {
    registered: new Set(),
    lids: new Map(),
    groups: new Map(),
    profilePicUrl: undefined,
    pictures: new Map(),
    media: new Map(),
    initializeError: null,
    chats: [],
  };

  constructor(readonly options: WAWebJS.ClientOptions) {
    super();
  }

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  /** The recorded calls of one method. */
  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  // ---- the library's methods ------------------------------------------------------------------------------------

  async initialize(): Promise<void> {
    this.record('initialize');
    if (this.state.initializeError) throw this.state.initializeError;
  }

  async destroy(): Promise<void> {
    this.record('destroy');
  }

  async logout(): Promise<void> {
    this.record('logout');
  }

  async sendMessage(
    chatId: string,
    content: string | WAWebJS.MessageMedia,
    options: WAWebJS.MessageSendOptions = {},
  ): Promise<WAWebJS.Message | undefined> {
    this.record('sendMessage', chatId, content, options);
    const isMedia = content instanceof structures.MessageMedia;
    const type = !isMedia
      ? 'chat'
      : options.sendMediaAsSticker
        ? 'sticker'
        : options.sendAudioAsVoice
          ? 'ptt'
          : options.sendMediaAsDocument
            ? 'document'
            : content.mimetype.split('/')[0]!;
    const raw: RawMessage = {
      id: rawKey(true, chatId, newMessageId()),
      type,
      t: 1_750_000_100,
      from: this.info?.wid._serialized ?? '5511900000000@c.us',
      to: chatId,
      ack: 0,
      ...(isMedia
        ? { directPath: '/v/t62/fake', mimetype: content.mimetype, caption: options.caption ?? '' }
        : { body: content }),
    };
    const message = this.build(raw);
    // WhatsApp Web adds the message to its collection while the send runs: the echo comes first.
    this.emit('message_create', message);
    return message;
  }

  async sendReaction(messageId: string, reaction: string): Promise<void> {
    this.record('sendReaction', messageId, reaction);
  }

  async getMessageById(messageId: string): Promise<WAWebJS.Message | null> {
    this.record('getMessageById', messageId);
    return this.messages.get(messageId) ?? null;
  }

  async getNumberId(number: string): Promise<{ user: string; server: string; _serialized: string } | null> {
    this.record('getNumberId', number);
    const user = number.replace(/@c\.us$/, '');
    return this.state.registered.has(user) ? { user, server: 'c.us', _serialized: `${user}@c.us` } : null;
  }

  async getContactLidAndPhone(userIds: string[]): Promise<{ lid?: string; pn?: string }[]> {
    this.record('getContactLidAndPhone', userIds);
    return userIds.map((id) => ({ lid: id, pn: this.state.lids.get(id) }));
  }

  async getChatById(chatId: string): Promise<{ name?: string; isGroup?: boolean }> {
    this.record('getChatById', chatId);
    const group = this.state.groups.get(chatId);
    return group ? { name: group, isGroup: true } : { name: chatId.split('@')[0], isGroup: false };
  }

  async getChats(): Promise<unknown[]> {
    this.record('getChats');
    return this.state.chats.map((chat) => ({
      id: { _serialized: chat.id },
      isGroup: chat.isGroup,
      fetchMessages: async ({ limit }: { limit: number }) => {
        this.record('chat.fetchMessages', chat.id, limit);
        return chat.history.slice(-limit).map((raw) => this.build(raw));
      },
    }));
  }

  async getProfilePicUrl(contactId: string): Promise<string | undefined> {
    this.record('getProfilePicUrl', contactId);
    return this.state.pictures.has(contactId) ? this.state.pictures.get(contactId) : this.state.profilePicUrl;
  }

  // ---- structures -----------------------------------------------------------------------------------------------

  /** The library's Message for a raw model, its page-side methods recorded here. */
  build(raw: RawMessage): WAWebJS.Message {
    const message = new structures.Message(this, raw);
    const serialized = raw.id._serialized;
    message.edit = async (content: WAWebJS.MessageContent) => {
      this.record('message.edit', serialized, content);
      return raw.id.fromMe && typeof content === 'string' ? this.build({ ...raw, body: content }) : null;
    };
    message.delete = async (everyone?: boolean) => {
      this.record('message.delete', serialized, everyone);
    };
    message.downloadMedia = async () => {
      this.record('message.downloadMedia', serialized);
      const media = this.state.media.get(serialized);
      if (!message.hasMedia || !media) return undefined as unknown as WAWebJS.MessageMedia;
      return new structures.MessageMedia(media.mimetype, media.data.toString('base64'), media.filename);
    };
    this.messages.set(serialized, message);
    return message;
  }

  // ---- what WhatsApp Web does (test drivers) ----------------------------------------------------------------------

  showQr(qr: string): void {
    this.emit('qr', qr);
  }

  showPairingCode(code: string): void {
    this.emit('code', code);
  }

  /** The phone scanned (or a stored session resumed): authenticated, then ready with the account's id. */
  connect(user = '5511900000000', server = 'c.us'): void {
    this.emit('authenticated');
    this.info = { wid: { user, server, _serialized: `${user}@${server}` } };
    this.emit('ready');
  }

  /** A message arrives (or is written on the phone, fromMe): message_create, then message for others' messages. */
  receive(raw: RawMessage): WAWebJS.Message {
    const message = this.build(raw);
    this.emit('message_create', message);
    if (!raw.id.fromMe) this.emit('message', message);
    return message;
  }

  ack(message: WAWebJS.Message, ack: number): void {
    message.ack = ack;
    this.emit('message_ack', message, ack);
  }

  editMessage(raw: RawMessage, newBody: string, at = 1_750_000_500_000): void {
    const prev = raw.body ?? '';
    const edited = this.build({ ...raw, body: newBody, latestEditSenderTimestampMs: at });
    this.emit('message_edit', edited, newBody, prev);
  }

  /** Deleted for everyone: the revoked copy names the original in protocolMessageKey. */
  revoke(raw: RawMessage): void {
    const revoked = new structures.Message(this, {
      ...raw,
      id: rawKey(raw.id.fromMe, raw.id.remote, newMessageId(), raw.id.participant),
      type: 'revoked',
      body: '',
      protocolMessageKey: raw.id,
    });
    this.emit('message_revoke_everyone', revoked, null);
  }

  /** A reaction as the page reports it (reaction key, parent key, sender, seconds). */
  react(parent: RawKey, senderJid: string, text: string, fromMe = false): void {
    const reaction = new structures.Reaction(this, {
      msgKey: rawKey(fromMe, parent.remote, newMessageId()),
      parentMsgKey: parent,
      senderUserJid: senderJid,
      reactionText: text,
      timestamp: 1_750_000_600,
      orphan: 0,
      read: false,
      ack: 1,
    });
    this.emit('message_reaction', reaction);
  }

  /** An incoming call; its reject() is recorded. */
  call(peerJid: string, options: { isVideo?: boolean; isGroup?: boolean; outgoing?: boolean } = {}): WAWebJS.Call {
    const call = new structures.Call(this, {
      id: `CALL${newMessageId()}`,
      peerJid,
      offerTime: 1_750_000_700,
      isVideo: Boolean(options.isVideo),
      isGroup: Boolean(options.isGroup),
      outgoing: Boolean(options.outgoing),
      canHandleLocally: false,
      webClientShouldHandle: false,
      participants: {},
    });
    call.reject = async () => {
      this.record('call.reject', call.id, call.from);
    };
    this.emit('call', call);
    return call;
  }

  disconnect(reason: string): void {
    this.emit('disconnected', reason);
  }
}

/** A `makeClient` that keeps every client it made (`configure` runs before the driver touches it). */
export function fakeClientFactory(configure: (client: FakeWwebjsClient) => void = () => undefined) {
  const made: FakeWwebjsClient[] = [];
  return {
    made,
    last(): FakeWwebjsClient {
      const client = made.at(-1);
      if (!client) throw new Error('no client made yet');
      return client;
    },
    makeClient: (options: WAWebJS.ClientOptions) => {
      const client = new FakeWwebjsClient(options);
      configure(client);
      made.push(client);
      return client;
    },
  };
}
