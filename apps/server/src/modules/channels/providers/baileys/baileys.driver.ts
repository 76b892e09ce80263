/**
 * The Baileys session driver: one baileys socket per channel on the lease owner (sessions/session-host.ts runs it).
 * It translates only: library events -> InboundEvents through `context.emit` (in arrival order, each batch stored
 * before the next is handled), LiveSession calls -> socket calls. Auth state lives in the session's AuthStateStore
 * (baileys.auth.ts). The socket is created by `makeSocket` (baileys' makeWASocket; tests inject the fake socket).
 *
 * Connection lifecycle: a QR (`connection.update {qr}`) becomes session status `qrcode`, or with a pairing number a
 * pairing code (status PAIRING); `open` becomes CONNECTED with the number and profile picture. After a first login
 * WhatsApp closes with `restartRequired` (515): that is part of the login, the driver opens the next socket itself.
 * Every other close ends the session: `context.closed()` with loggedOut/forbidden/multi-device mismatch ->
 * 'logged-out', connectionReplaced -> 'conflict', timedOut before any login (the QR expired) -> 'timeout', the rest
 * -> 'lost'; the host decides about reconnecting.
 *
 * History import (H8): with the channel's `importMessages` on, the history WhatsApp sends after a login (chunks of
 * `messaging-history.set` other than on-demand ones) is handed over as imported message events (baileys.history.ts:
 * the channel's dates and group option), each chunk announced by a `history-import` event with the running total.
 * The import ends when WhatsApp says the RECENT sync is complete (or baileys gives it up as paused), or when no chunk
 * came for `historyQuietMs`: then one `history-import` with `done`. Ingestion stores them and reports the progress.
 *
 * Not reported: battery (multi-device WhatsApp has no battery state; baileys 7 emits none).
 */
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import {
  Browsers,
  DisconnectReason,
  proto,
  downloadContentFromMessage,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  makeWASocket,
  type AnyMessageContent,
  type BaileysEventMap,
  type ConnectionState,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
} from 'baileys';
import type { ChannelCredentials, InboundEvent, OutboundMessage, SendResult } from '../../channels.adapter.js';
import { ProviderError } from '../../channels.adapter.js';
import type {
  GroupParticipant,
  LiveSession,
  NumberCheck,
  SessionCloseReason,
  SessionContext,
  SessionDriver,
} from '../../sessions/session-driver.js';
import { loadBaileysAuth } from './baileys.auth.js';
import { historyCandidates, historyEvents } from './baileys.history.js';
import {
  bareLid,
  jidUser,
  lidPairsOf,
  lidsOf,
  mediaRefSchema,
  normalizeWhatsAppNumber,
  numberOf,
  parseContacts,
  parseGroups,
  parseMessage,
  parseMessageUpdates,
  parseReactions,
  parseReceipts,
  whatsAppNumberForms,
  type ParseContext,
} from './baileys.parse.js';
import type { BaileysSocket, MakeBaileysSocket } from './baileys.socket.js';

export { loadBaileysSocketFactory } from './baileys.socket.js';

export interface BaileysDriverOptions {
  /** Where sockets are made; default baileys' makeWASocket. */
  makeSocket?: MakeBaileysSocket;
  logger?: Logger;
  /** A login's history import ends when no history chunk came for this long (default 150 s). */
  historyQuietMs?: number;
}

/** Longer than baileys' own RECENT "paused" timeout (120 s), which normally ends the import first. */
const HISTORY_QUIET_MS = 150_000;

/** The library's socket fits the seam (a compile-time check, no runtime cost). */
const librarySocket: MakeBaileysSocket = (config) => makeWASocket(config);

/** Message keys remembered per session (quotes, reactions and edits need the original key). */
const REMEMBERED_MESSAGES = 5_000;

/** DisconnectReason status code -> why the session ended (restartRequired never gets here). */
export function closeReasonOf(statusCode: number | undefined, loggedIn: boolean): SessionCloseReason {
  switch (statusCode) {
    case DisconnectReason.loggedOut:
    case DisconnectReason.forbidden:
    case DisconnectReason.multideviceMismatch:
      return 'logged-out';
    case DisconnectReason.connectionReplaced:
      return 'conflict';
    case DisconnectReason.timedOut:
      // 408 is both "QR refs attempts ended" (nobody scanned) and a lost connection of a logged-in session.
      return loggedIn ? 'lost' : 'timeout';
    default:
      return 'lost';
  }
}

const statusCodeOf = (error: unknown): number | undefined =>
  (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;

/** A library failure as a ProviderError: 4xx answers are permanent (bad JID, gone media), the rest transient. */
function providerError(what: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = statusCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const permanent = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return new ProviderError(`baileys ${what}: ${message}`, permanent, status);
}

/**
 * WhatsApp's answer to a picture query of a chat without one (`item-not-found`, 404) or that hides it from us
 * (`not-authorized`, 401): the library throws it as a Boom whose `data` is the IQ error code.
 */
function noPicture(error: unknown): boolean {
  const code = (error as { data?: unknown } | undefined)?.data;
  return code === 404 || code === 401;
}

async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      stream.destroy();
      throw new ProviderError(`baileys download: media larger than ${maxBytes} bytes`, true);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Stateless download (any node): the ref holds the URL/direct path and the media key; decrypted by the library. */
export async function downloadBaileysMedia(
  ref: string,
  maxBytes: number,
): Promise<{ data: Buffer; mime: string | null; name: string | null }> {
  let parsed;
  try {
    parsed = mediaRefSchema.parse(JSON.parse(ref));
  } catch {
    throw new ProviderError('baileys download: not a Baileys media reference', true);
  }
  try {
    const stream = await downloadContentFromMessage(
      { url: parsed.url, directPath: parsed.directPath, mediaKey: Buffer.from(parsed.mediaKey, 'base64') },
      parsed.type,
    );
    const data = await readLimited(stream, maxBytes);
    return { data, mime: parsed.mimetype, name: parsed.fileName };
  } catch (error) {
    throw providerError('download', error);
  }
}

/** A message timestamp (seconds) as the library gives it: a number, or a protobuf Long from decoding. */
const secondsOf = (value: unknown): number => {
  if (typeof value === 'number') return value;
  const long = value as { toNumber?: () => number } | null | undefined;
  return typeof long?.toNumber === 'function' ? long.toNumber() : Number(value ?? 0) || 0;
};

const toJid = (number: string) => `${number}@s.whatsapp.net`;

/** The socket content of an outbound message (media types without a file are refused). */
export function contentFor(message: OutboundMessage): AnyMessageContent {
  const caption = message.body || undefined;
  if (message.mediaType === 'chat' || !message.media) {
    if (message.mediaType !== 'chat' && message.mediaType !== 'vcard' && message.mediaType !== 'location') {
      throw new ProviderError(`baileys send: ${message.mediaType} without a file`, true);
    }
    if (!message.body) throw new ProviderError('baileys send: empty message', true);
    return { text: message.body };
  }
  const { data, mime, name } = message.media;
  switch (message.mediaType) {
    case 'image':
      return { image: data, caption, mimetype: mime };
    case 'video':
      return { video: data, caption, mimetype: mime };
    case 'audio':
      return { audio: data, mimetype: mime, ptt: false };
    case 'ptt':
      return { audio: data, mimetype: mime, ptt: true };
    case 'sticker':
      return { sticker: data, mimetype: mime };
    default:
      return { document: data, mimetype: mime, fileName: name, caption };
  }
}

export function createBaileysDriver(options: BaileysDriverOptions = {}): SessionDriver {
  const makeSocket = options.makeSocket ?? librarySocket;
  return {
    type: 'baileys',
    open: (channel, context) =>
      openSession(
        channel,
        context,
        makeSocket,
        options.logger ?? context.logger,
        options.historyQuietMs ?? HISTORY_QUIET_MS,
      ),
    downloadMedia: downloadBaileysMedia,
  };
}

async function openSession(
  channel: ChannelCredentials,
  context: SessionContext,
  makeSocket: MakeBaileysSocket,
  baseLogger: Logger,
  historyQuietMs: number,
): Promise<LiveSession> {
  const logger = baseLogger.child({ channelId: channel.id, driver: 'baileys' });
  const auth = await loadBaileysAuth(context.auth);
  const lidToPn = new Map<string, string>();
  const groupNames = new Map<string, string | null>();
  /** Canonical number -> the JID WhatsApp addresses it by (the ninth digit may differ). */
  const numberJids = new Map<string, string>();
  const remembered = new Map<string, WAMessage>();
  /** The phone's contacts seen this session (contacts.upsert/update, history): number -> name. */
  const phoneContacts = new Map<string, string | null>();
  let socket!: BaileysSocket;
  let connected = false;
  let stopping = false;
  let pairingRequested = false;
  let syncPercent = -1;
  let chain: Promise<void> = Promise.resolve();
  /** The login's history import (channel option importMessages): running, and whether it ended already. */
  const importOptions = channel.historyImport ?? null;
  let importing: { total: number; timer: NodeJS.Timeout | null } | null = null;
  let importEnded = false;

  const parseContext: ParseContext = {
    pnForLid: (lid) => lidToPn.get(bareLid(lid)) ?? null,
    groupName: (jid) => groupNames.get(jid) ?? null,
  };

  /** Event handlers run one after another, in arrival order; a failure is logged and the next one runs. */
  const serial = (what: string, work: () => Promise<void>) => {
    chain = chain.then(work).catch((error: unknown) => logger.error({ err: error }, `baileys: ${what} failed`));
  };
  const emit = async (events: InboundEvent[]) => {
    if (events.length) await context.emit(events);
  };

  /** A chunk of the login's history: its messages to import, announced with the running total. */
  async function importHistory(sock: BaileysSocket, messages: WAMessage[]) {
    if (!importOptions || importEnded) return;
    const candidates = historyCandidates(messages, importOptions);
    for (const message of candidates) remember(message);
    await learnAddresses(sock, candidates);
    const events = historyEvents(candidates, importOptions, parseContext);
    importing ??= { total: 0, timer: null };
    importing.total += events.length;
    await emit([{ kind: 'history-import', total: importing.total, done: false }]);
    for (const event of events) {
      // One message that fails to store does not drop the rest of the chunk.
      await emit([event]).catch((error: unknown) =>
        logger.error({ err: error, id: event.providerMessageId }, 'baileys: storing an imported message failed'),
      );
    }
    if (importing.timer) clearTimeout(importing.timer);
    importing.timer = setTimeout(() => {
      if (!stopping) serial('history import end', endImport);
    }, historyQuietMs);
    importing.timer.unref();
  }

  async function endImport() {
    if (!importing) return;
    const { total, timer } = importing;
    if (timer) clearTimeout(timer);
    importing = null;
    importEnded = true;
    await emit([{ kind: 'history-import', total, done: true }]);
  }

  const stopImportTimer = () => {
    if (importing?.timer) clearTimeout(importing.timer);
  };

  function remember(message: WAMessage | undefined) {
    if (!message?.key.id) return;
    remembered.delete(message.key.id);
    remembered.set(message.key.id, message);
    if (remembered.size > REMEMBERED_MESSAGES) remembered.delete(remembered.keys().next().value!);
  }

  async function learnAddresses(sock: BaileysSocket, messages: WAMessage[]) {
    for (const [lid, pn] of lidPairsOf(messages)) lidToPn.set(lid, pn);
    for (const lid of lidsOf(messages)) {
      if (lidToPn.has(lid)) continue;
      const pn = await sock.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
      if (pn) lidToPn.set(lid, `${jidUser(pn)}@s.whatsapp.net`);
    }
    for (const message of messages) {
      const chat = message.key.remoteJid;
      if (!chat) continue;
      if (chat.endsWith('@g.us') && !groupNames.has(chat)) {
        const meta = await sock.groupMetadata(chat).catch(() => null);
        groupNames.set(chat, meta?.subject ?? null);
      }
      const phone = chat.endsWith('@s.whatsapp.net')
        ? chat
        : chat.endsWith('@lid')
          ? parseContext.pnForLid(chat)
          : null;
      if (phone) numberJids.set(normalizeWhatsAppNumber(jidUser(phone)), jidNormalizedUser(phone));
    }
  }

  async function onConnection(sock: BaileysSocket, update: Partial<ConnectionState>) {
    if (update.qr && !stopping) {
      const loggedIn = Boolean(auth.state.creds.me);
      if (context.pairingNumber && !loggedIn) {
        if (pairingRequested) return;
        pairingRequested = true;
        const pairingCode = await sock.requestPairingCode(context.pairingNumber.replace(/\D/g, ''));
        await emit([{ kind: 'session', status: 'PAIRING', pairingCode }]);
      } else if (!loggedIn) {
        await emit([{ kind: 'session', status: 'qrcode', qrcode: update.qr }]);
      }
    }
    if (update.connection === 'open') {
      connected = true;
      const me = sock.user?.id;
      const number = me ? normalizeWhatsAppNumber(jidUser(me)) : null;
      const profilePicUrl = me
        ? ((await sock.profilePictureUrl(jidNormalizedUser(me), 'image').catch(() => undefined)) ?? null)
        : null;
      await emit([{ kind: 'session', status: 'CONNECTED', number, profilePicUrl }]);
    }
    if (update.connection === 'close') {
      connected = false;
      if (stopping) return;
      const statusCode = statusCodeOf(update.lastDisconnect?.error);
      await auth.flush().catch(() => undefined);
      if (statusCode === DisconnectReason.restartRequired) {
        logger.info('baileys: restart after login');
        start();
        return;
      }
      const reason = closeReasonOf(statusCode, Boolean(auth.state.creds.me));
      logger.info({ statusCode, reason }, 'baileys: connection closed');
      stopping = true;
      context.closed(reason);
    }
  }

  async function onCalls(sock: BaileysSocket, calls: WACallEvent[]) {
    for (const call of calls) {
      if (call.status !== 'offer' || call.isGroup) continue;
      const policy = await context.callPolicy();
      if (!policy.reject) continue;
      await sock.rejectCall(call.id, call.from);
      if (policy.message.trim()) await sock.sendMessage(call.from, { text: policy.message });
    }
  }

  function start() {
    pairingRequested = false;
    const sock = makeSocket(
      {
        auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, logger) },
        logger: logger.child({ module: 'baileys' }, { level: 'warn' }),
        browser: Browsers.ubuntu('Conversa'),
        // Sends are stored by the send job; our own sends echoed back as upserts would race it.
        emitOwnEvents: false,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        getMessage: async (key) => (key.id ? (remembered.get(key.id)?.message ?? undefined) : undefined),
      },
      { channelId: channel.id },
    );
    socket = sock;
    const on = <E extends keyof BaileysEventMap>(event: E, work: (data: BaileysEventMap[E]) => Promise<void>) =>
      sock.ev.on(event, (data) => {
        if (socket === sock) serial(event, () => work(data));
      });
    sock.ev.on('creds.update', () => {
      auth.saveCreds().catch((error: unknown) => logger.error({ err: error }, 'baileys: saving creds failed'));
    });
    on('connection.update', (update) => onConnection(sock, update));
    on('messages.upsert', async ({ messages }) => {
      for (const message of messages) remember(message);
      await learnAddresses(sock, messages);
      await emit(messages.flatMap((message) => parseMessage(message, parseContext)));
    });
    on('messages.update', (updates) => emit(parseMessageUpdates(updates, parseContext)));
    on('message-receipt.update', (receipts) => emit(parseReceipts(receipts)));
    on('messages.reaction', (reactions) => emit(parseReactions(reactions, parseContext)));
    on('lid-mapping.update', async ({ lid, pn }) => void lidToPn.set(bareLid(lid), `${jidUser(pn)}@s.whatsapp.net`));
    const learnContacts = (contacts: BaileysEventMap['contacts.upsert']) => {
      for (const [lid, pn] of lidPairsOf([], contacts)) lidToPn.set(lid, pn);
      for (const contact of contacts) {
        const number = contact.id ? numberOf(contact.id, [contact.phoneNumber], parseContext) : null;
        if (number) phoneContacts.set(number, contact.name ?? contact.notify ?? phoneContacts.get(number) ?? null);
      }
    };
    const onContacts = async (contacts: BaileysEventMap['contacts.upsert']) => {
      learnContacts(contacts);
      await emit(parseContacts(contacts, parseContext));
    };
    on('contacts.upsert', onContacts);
    on('contacts.update', (contacts) => onContacts(contacts as BaileysEventMap['contacts.upsert']));
    const onGroups = async (groups: BaileysEventMap['groups.update']) => {
      for (const group of groups) if (group.id && group.subject) groupNames.set(group.id, group.subject);
      await emit(parseGroups(groups));
    };
    on('groups.upsert', onGroups);
    on('groups.update', onGroups);
    on('messaging-history.set', async ({ lidPnMappings, contacts, messages, progress, syncType }) => {
      for (const { lid, pn } of lidPnMappings ?? []) lidToPn.set(bareLid(lid), `${jidUser(pn)}@s.whatsapp.net`);
      learnContacts(contacts);
      // Older messages asked for by requestHistory; the login's own history is imported when the channel asks.
      if (syncType === proto.HistorySync.HistorySyncType.ON_DEMAND) {
        if (messages.length) {
          for (const message of messages) remember(message);
          await learnAddresses(sock, messages);
          await emit(messages.flatMap((message) => parseMessage(message, parseContext)));
        }
      } else await importHistory(sock, messages);
      if (typeof progress === 'number') {
        const percent = Math.max(0, Math.min(100, Math.round(progress)));
        if (percent !== syncPercent) {
          syncPercent = percent;
          await emit([{ kind: 'session-sync', percent }]);
        }
      }
    });
    on('messaging-history.status', async ({ status, syncType }) => {
      if (status === 'complete' && syncPercent !== 100) {
        syncPercent = 100;
        await emit([{ kind: 'session-sync', percent: 100 }]);
      }
      // The recent history is all there (or baileys stopped waiting for it): the import is over.
      if (syncType === proto.HistorySync.HistorySyncType.RECENT) await endImport();
    });
    on('call', (calls) => onCalls(sock, calls));
  }

  const ready = () => {
    if (!connected || stopping) throw new ProviderError('ERR_WAPP_NOT_INITIALIZED', false);
    return socket;
  };

  /** The JID to send to: groups and LIDs as given; a number by the form WhatsApp knows it (ninth digit). */
  async function chatJid(sock: BaileysSocket, to: string): Promise<string> {
    if (to.includes('@')) return to;
    const number = normalizeWhatsAppNumber(to);
    const known = numberJids.get(number);
    if (known) return known;
    const forms = whatsAppNumberForms(number);
    if (forms.length === 1) return toJid(number);
    const found = (await sock.onWhatsApp(...forms.map(toJid)).catch(() => undefined))?.find((r) => r.exists);
    const jid = found ? jidNormalizedUser(found.jid) : toJid(number);
    if (found) numberJids.set(number, jid);
    return jid;
  }

  /** The key of a message of this chat: remembered, else built (fromMe as the action implies). */
  function keyOf(jid: string, id: string, fromMe: boolean): WAMessageKey {
    return remembered.get(id)?.key ?? { remoteJid: jid, id, fromMe };
  }

  async function send(message: OutboundMessage): Promise<SendResult> {
    const sock = ready();
    const content = contentFor(message);
    try {
      const jid = await chatJid(sock, message.to);
      const quotedId = message.replyToProviderMessageId;
      const quoted = quotedId
        ? (remembered.get(quotedId) ?? { key: keyOf(jid, quotedId, false), message: { conversation: '' } })
        : undefined;
      const options = {
        ...(quoted ? { quoted } : {}),
        ...(message.clientMessageId ? { messageId: message.clientMessageId } : {}),
      };
      const sent = await sock.sendMessage(jid, content, Object.keys(options).length ? options : undefined);
      if (!sent?.key.id) throw new ProviderError('baileys send: no message id', false);
      remember(sent);
      const seconds = secondsOf(sent.messageTimestamp);
      return { providerMessageId: sent.key.id, ack: 1, timestamp: seconds ? seconds * 1000 : Date.now() };
    } catch (error) {
      throw providerError('send', error);
    }
  }

  async function act(what: string, to: string, content: (jid: string) => AnyMessageContent): Promise<void> {
    const sock = ready();
    try {
      const jid = await chatJid(sock, to);
      await sock.sendMessage(jid, content(jid));
    } catch (error) {
      throw providerError(what, error);
    }
  }

  /** The oldest remembered message per chat (the anchor an on-demand history request needs). */
  function oldestByChat(): Map<string, WAMessage> {
    const oldest = new Map<string, WAMessage>();
    for (const message of remembered.values()) {
      const chat = message.key.remoteJid;
      if (!chat || !message.messageTimestamp) continue;
      const current = oldest.get(chat);
      if (!current || secondsOf(message.messageTimestamp) < secondsOf(current.messageTimestamp))
        oldest.set(chat, message);
    }
    return oldest;
  }

  start();

  return {
    send,
    edit: (to, id, body) => act('edit', to, (jid) => ({ text: body, edit: keyOf(jid, id, true) })),
    delete: (to, id) => act('delete', to, (jid) => ({ delete: keyOf(jid, id, true) })),
    react: (to, id, emoji) => act('react', to, (jid) => ({ react: { text: emoji, key: keyOf(jid, id, false) } })),
    downloadMedia: downloadBaileysMedia,
    async checkNumber(number): Promise<NumberCheck> {
      const sock = ready();
      const forms = whatsAppNumberForms(number);
      let results;
      try {
        results = await sock.onWhatsApp(...forms.map(toJid));
      } catch (error) {
        throw providerError('checkNumber', error);
      }
      const found = results?.find((r) => r.exists);
      if (!found) return { exists: false, number: null };
      const canonical = normalizeWhatsAppNumber(jidUser(found.jid));
      numberJids.set(canonical, jidNormalizedUser(found.jid));
      return { exists: true, number: canonical };
    },
    async groupParticipants(groupId): Promise<GroupParticipant[]> {
      const sock = ready();
      let meta;
      try {
        meta = await sock.groupMetadata(groupId.includes('@') ? groupId : `${groupId}@g.us`);
      } catch (error) {
        throw providerError('groupParticipants', error);
      }
      const members: GroupParticipant[] = [];
      for (const p of meta.participants) {
        const number = numberOf(p.id, [p.phoneNumber], parseContext);
        if (number) members.push({ number, name: p.notify ?? p.name ?? null, isAdmin: Boolean(p.admin) });
      }
      return members;
    },
    async listGroups() {
      const sock = ready();
      try {
        const groups = Object.values(await sock.groupFetchAllParticipating());
        for (const group of groups) groupNames.set(group.id, group.subject);
        return groups.map((g) => ({ id: g.id, subject: g.subject, participants: g.participants.length }));
      } catch (error) {
        throw providerError('listGroups', error);
      }
    },
    async listContacts() {
      ready();
      return [...phoneContacts].map(([number, name]) => ({ number, name }));
    },
    async requestHistory(chatId, limit) {
      const sock = ready();
      const anchors = oldestByChat();
      const chats = chatId === null ? [...anchors.keys()] : [await chatJid(sock, chatId)];
      let asked = 0;
      for (const chat of chats) {
        const anchor = anchors.get(chat);
        if (!anchor || asked >= limit) continue;
        // WhatsApp answers at most 50 messages per on-demand request.
        const count = Math.min(50, limit - asked);
        try {
          await sock.fetchMessageHistory(count, anchor.key, secondsOf(anchor.messageTimestamp));
        } catch (error) {
          throw providerError('requestHistory', error);
        }
        asked += count;
      }
      return asked;
    },
    async sendMention(to, body, mentions) {
      const sock = ready();
      try {
        const jid = await chatJid(sock, to);
        const mentioned = await Promise.all(mentions.map((number) => chatJid(sock, number)));
        const sent = await sock.sendMessage(jid, { text: body, mentions: mentioned });
        if (!sent?.key.id) throw new ProviderError('baileys send: no message id', false);
        remember(sent);
        const seconds = secondsOf(sent.messageTimestamp);
        return { providerMessageId: sent.key.id, ack: 1, timestamp: seconds ? seconds * 1000 : Date.now() };
      } catch (error) {
        throw providerError('sendMention', error);
      }
    },
    async profilePicture(chatId) {
      const sock = ready();
      try {
        return (await sock.profilePictureUrl(await chatJid(sock, chatId), 'image')) ?? null;
      } catch (error) {
        if (noPicture(error)) return null;
        throw providerError('profilePicture', error);
      }
    },
    async logout() {
      stopping = true;
      connected = false;
      stopImportTimer();
      try {
        await socket.logout();
      } catch (error) {
        // Not connected (or already unlinked): the phone forgets the device when it sees it gone; clear anyway.
        logger.warn({ err: error }, 'baileys: logout failed; clearing the auth state anyway');
        await socket.end(undefined).catch(() => undefined);
      }
      await auth.flush().catch(() => undefined);
      await context.auth.clear();
    },
    async close() {
      stopping = true;
      connected = false;
      stopImportTimer();
      await socket.end(undefined).catch(() => undefined);
      await auth.flush().catch(() => undefined);
    },
  };
}
