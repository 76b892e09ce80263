/**
 * The live session operations of an Evolution channel (GatewayLive) over Evolution API v2:
 * - checkNumber: `POST /chat/whatsappNumbers/{instance}` `{numbers}` with every form WhatsApp may know the number by
 *   (../whatsapp-number.ts); the first that exists answers, its JID's digits under the one-number rule;
 * - groupParticipants: `GET /group/participants/{instance}?groupJid=`; a member addressed by LID is read by its
 *   `phoneNumber` (Baileys 7), a member with neither phone is left out; `admin` is `admin` or `superadmin`;
 * - listGroups: `GET /group/fetchAllGroups/{instance}?getParticipants=false`; the id is the group JID, as a group's
 *   contact stores it (`...@g.us`, evolution.parse.ts), the member count Evolution's `size`;
 * - listContacts: `POST /chat/findContacts/{instance}`; people only (user JIDs: no groups, LIDs or broadcasts);
 * - fetchHistory: `POST /chat/findMessages/{instance}` by `where.key.remoteJid` (each form of a number; a group's
 *   JID; every chat when null), newest first, page by page (`offset` = page size, `page`), records parsed by the
 *   webhook parser (evolution.parse.ts) into ordinary message events;
 * - sendMention: `POST /message/sendText/{instance}` with `mentioned` (numbers; Evolution makes the JIDs). Evolution's
 *   `mentionsEveryOne` is not used: the caller already names every member for mention-all and ghost mentions.
 * Errors are the client's ProviderErrors.
 */
import type { z } from 'zod';
import type { GatewayLive, GroupParticipant, InboundEvent } from '../../channels.adapter.js';
import { normalizeWhatsAppNumber, whatsAppNumberForms } from '../whatsapp-number.js';
import { storedMessageEvent } from './evolution.history.js';
import { phoneOfJid } from './evolution.parse.js';
import {
  evoContactsSchema,
  evoGroupsSchema,
  evoMessagesPageSchema,
  evoParticipantsSchema,
  evoSentSchema,
  evoWhatsappNumbersSchema,
} from './evolution.schemas.js';

/** A call to one route of the channel's instance (`route/{instance}` + query). */
export type EvolutionInstanceCall = <T>(
  method: 'GET' | 'POST',
  route: string,
  body: Record<string, unknown> | null,
  result: z.ZodType<T>,
  maxAnswerBytes?: number,
  query?: string,
) => Promise<T>;

const MiB = 1024 * 1024;
/** A phone book of tens of thousands of contacts (a record is ~0.5 KB with its picture URL). */
export const CONTACTS_MAX_ANSWER = 32 * MiB;
/** A group list with pictures and descriptions; a group's members (up to 1024 with names). */
export const GROUPS_MAX_ANSWER = 8 * MiB;
/** Messages per findMessages page, and the largest page read (records carry the whole message object). */
export const HISTORY_PAGE = 50;
export const HISTORY_PAGE_MAX_ANSWER = 16 * MiB;

const groupJid = (id: string): string => (id.endsWith('@g.us') ? id : `${id}@g.us`);

/** The chats whose messages are asked: a group's JID; a number in every form WhatsApp may know it by. */
const chatJids = (chatId: string): string[] =>
  chatId.includes('@')
    ? [chatId]
    : whatsAppNumberForms(chatId.replace(/\D/g, '')).map((form) => `${form}@s.whatsapp.net`);

export function createEvolutionLive(call: EvolutionInstanceCall): Required<GatewayLive> {
  /** Up to `limit` message events of one chat (every chat: null), page after page, newest first. */
  async function history(remoteJid: string | null, limit: number): Promise<InboundEvent[]> {
    const events: InboundEvent[] = [];
    for (let page = 1; events.length < limit; page++) {
      const body = { where: remoteJid ? { key: { remoteJid } } : {}, offset: HISTORY_PAGE, page };
      const answer = await call('POST', 'chat/findMessages', body, evoMessagesPageSchema, HISTORY_PAGE_MAX_ANSWER);
      for (const record of answer.messages.records) {
        // Reactions, edits and revokes of older messages are no messages to store.
        const event = storedMessageEvent(record);
        if (event && events.length < limit) events.push(event);
      }
      if (answer.messages.records.length < HISTORY_PAGE || page >= answer.messages.pages) break;
    }
    return events;
  }

  return {
    async checkNumber(number) {
      const forms = whatsAppNumberForms(number);
      const answer = await call('POST', 'chat/whatsappNumbers', { numbers: forms }, evoWhatsappNumbersSchema);
      const found = answer.find((entry) => entry.exists);
      if (!found) return { exists: false, number: null };
      // Evolution answers the JID WhatsApp knows; a cached LID answer keeps the number asked.
      return { exists: true, number: phoneOfJid(found.jid) ?? normalizeWhatsAppNumber(found.number) };
    },

    async groupParticipants(groupId) {
      const query = `?groupJid=${encodeURIComponent(groupJid(groupId))}`;
      const answer = await call('GET', 'group/participants', null, evoParticipantsSchema, GROUPS_MAX_ANSWER, query);
      const members: GroupParticipant[] = [];
      for (const p of answer.participants) {
        const number = phoneOfJid(p.id) ?? phoneOfJid(p.phoneNumber);
        if (!number) continue;
        const name = p.name?.trim() || p.notify?.trim() || null;
        members.push({ number, name, isAdmin: p.admin === 'admin' || p.admin === 'superadmin' });
      }
      return members;
    },

    async listGroups() {
      const query = '?getParticipants=false';
      const answer = await call('GET', 'group/fetchAllGroups', null, evoGroupsSchema, GROUPS_MAX_ANSWER, query);
      return answer
        .filter((group) => group.id.endsWith('@g.us'))
        .map((group) => ({ id: group.id, subject: group.subject ?? '', participants: group.size ?? 0 }));
    },

    async listContacts() {
      const answer = await call('POST', 'chat/findContacts', {}, evoContactsSchema, CONTACTS_MAX_ANSWER);
      const people = new Map<string, string | null>();
      for (const contact of answer) {
        const number = phoneOfJid(contact.remoteJid);
        if (!number) continue;
        const name = contact.pushName?.trim() || null;
        if (!people.has(number) || (name && !people.get(number))) people.set(number, name);
      }
      return [...people].map(([number, name]) => ({ number, name }));
    },

    async fetchHistory(chatId, limit) {
      const events: InboundEvent[] = [];
      for (const jid of chatId === null ? [null] : chatJids(chatId)) {
        if (events.length >= limit) break;
        events.push(...(await history(jid, limit - events.length)));
      }
      return events;
    },

    async sendMention(to, body, mentions) {
      const payload = { number: to, text: body, mentioned: mentions };
      const sent = await call('POST', 'message/sendText', payload, evoSentSchema);
      return {
        providerMessageId: sent.key.id,
        ack: 1,
        timestamp: sent.messageTimestamp ? sent.messageTimestamp * 1000 : Date.now(),
      };
    },
  };
}
