/**
 * The driver's actions (baileys.driver.ts): LiveSession calls -> socket calls on the current login's socket. Sends,
 * edits, deletes, reactions and mentions go to the JID WhatsApp knows a number by (the ninth digit may differ) and
 * use the remembered keys of earlier messages; number checks, groups, contacts, on-demand history and pictures are
 * asked of the socket. A session that is not connected refuses every call; library failures become ProviderErrors.
 */
import { jidNormalizedUser, type AnyMessageContent, type WAMessage, type WAMessageKey } from 'baileys';
import type { OutboundMessage, SendResult } from '../../channels.adapter.js';
import { ProviderError } from '../../channels.adapter.js';
import type { GroupParticipant, LiveSession, NumberCheck } from '../../sessions/session-driver.js';
import { contentFor, downloadBaileysMedia } from './baileys.driver-content.js';
import { noPicture, providerError } from './baileys.driver-errors.js';
import { remember, type BaileysSession } from './baileys.driver-state.js';
import { jidUser, normalizeWhatsAppNumber, numberOf, whatsAppNumberForms } from './baileys.parse.js';
import type { BaileysSocket } from './baileys.socket.js';

/** A message timestamp (seconds) as the library gives it: a number, or a protobuf Long from decoding. */
const secondsOf = (value: unknown): number => {
  if (typeof value === 'number') return value;
  const long = value as { toNumber?: () => number } | null | undefined;
  return typeof long?.toNumber === 'function' ? long.toNumber() : Number(value ?? 0) || 0;
};

const toJid = (number: string) => `${number}@s.whatsapp.net`;

const ready = (session: BaileysSession) => {
  if (!session.connected || session.stopping) throw new ProviderError('ERR_WAPP_NOT_INITIALIZED', false);
  return session.socket;
};

/** The JID to send to: groups and LIDs as given; a number by the form WhatsApp knows it (ninth digit). */
async function chatJid(session: BaileysSession, sock: BaileysSocket, to: string): Promise<string> {
  const { numberJids } = session;
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
function keyOf(session: BaileysSession, jid: string, id: string, fromMe: boolean): WAMessageKey {
  return session.remembered.get(id)?.key ?? { remoteJid: jid, id, fromMe };
}

async function send(session: BaileysSession, message: OutboundMessage): Promise<SendResult> {
  const sock = ready(session);
  const content = contentFor(message);
  try {
    const jid = await chatJid(session, sock, message.to);
    const quotedId = message.replyToProviderMessageId;
    const quoted = quotedId
      ? (session.remembered.get(quotedId) ?? {
          key: keyOf(session, jid, quotedId, false),
          message: { conversation: '' },
        })
      : undefined;
    const options = {
      ...(quoted ? { quoted } : {}),
      ...(message.clientMessageId ? { messageId: message.clientMessageId } : {}),
    };
    const sent = await sock.sendMessage(jid, content, Object.keys(options).length ? options : undefined);
    if (!sent?.key.id) throw new ProviderError('baileys send: no message id', false);
    remember(session, sent);
    const seconds = secondsOf(sent.messageTimestamp);
    return { providerMessageId: sent.key.id, ack: 1, timestamp: seconds ? seconds * 1000 : Date.now() };
  } catch (error) {
    throw providerError('send', error);
  }
}

async function act(
  session: BaileysSession,
  what: string,
  to: string,
  content: (jid: string) => AnyMessageContent,
): Promise<void> {
  const sock = ready(session);
  try {
    const jid = await chatJid(session, sock, to);
    await sock.sendMessage(jid, content(jid));
  } catch (error) {
    throw providerError(what, error);
  }
}

/** The oldest remembered message per chat (the anchor an on-demand history request needs). */
function oldestByChat(session: BaileysSession): Map<string, WAMessage> {
  const oldest = new Map<string, WAMessage>();
  for (const message of session.remembered.values()) {
    const chat = message.key.remoteJid;
    if (!chat || !message.messageTimestamp) continue;
    const current = oldest.get(chat);
    if (!current || secondsOf(message.messageTimestamp) < secondsOf(current.messageTimestamp))
      oldest.set(chat, message);
  }
  return oldest;
}

/** Every LiveSession call but the two that end the session (logout, close: baileys.driver-session.ts). */
export function liveActions(session: BaileysSession): Omit<LiveSession, 'logout' | 'close'> {
  const { numberJids, groupNames, phoneContacts, parseContext } = session;
  return {
    send: (message) => send(session, message),
    edit: (to, id, body) => act(session, 'edit', to, (jid) => ({ text: body, edit: keyOf(session, jid, id, true) })),
    delete: (to, id) => act(session, 'delete', to, (jid) => ({ delete: keyOf(session, jid, id, true) })),
    react: (to, id, emoji) =>
      act(session, 'react', to, (jid) => ({ react: { text: emoji, key: keyOf(session, jid, id, false) } })),
    downloadMedia: downloadBaileysMedia,
    async checkNumber(number): Promise<NumberCheck> {
      const sock = ready(session);
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
      const sock = ready(session);
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
      const sock = ready(session);
      try {
        const groups = Object.values(await sock.groupFetchAllParticipating());
        for (const group of groups) groupNames.set(group.id, group.subject);
        return groups.map((g) => ({ id: g.id, subject: g.subject, participants: g.participants.length }));
      } catch (error) {
        throw providerError('listGroups', error);
      }
    },
    async listContacts() {
      ready(session);
      return [...phoneContacts].map(([number, name]) => ({ number, name }));
    },
    async requestHistory(chatId, limit) {
      const sock = ready(session);
      const anchors = oldestByChat(session);
      const chats = chatId === null ? [...anchors.keys()] : [await chatJid(session, sock, chatId)];
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
      const sock = ready(session);
      try {
        const jid = await chatJid(session, sock, to);
        const mentioned = await Promise.all(mentions.map((number) => chatJid(session, sock, number)));
        const sent = await sock.sendMessage(jid, { text: body, mentions: mentioned });
        if (!sent?.key.id) throw new ProviderError('baileys send: no message id', false);
        remember(session, sent);
        const seconds = secondsOf(sent.messageTimestamp);
        return { providerMessageId: sent.key.id, ack: 1, timestamp: seconds ? seconds * 1000 : Date.now() };
      } catch (error) {
        throw providerError('sendMention', error);
      }
    },
    async profilePicture(chatId) {
      const sock = ready(session);
      try {
        return (await sock.profilePictureUrl(await chatJid(session, sock, chatId), 'image')) ?? null;
      } catch (error) {
        if (noPicture(error)) return null;
        throw providerError('profilePicture', error);
      }
    },
  };
}
