/**
 * The live operations of a Wuzapi channel (GatewayLive) over Wuzapi's REST API; the adapter wires them
 * (`adapter.live(channel)`). Each is one or two calls with the channel's token, answers validated, failures
 * ProviderErrors (wuzapi.client.ts):
 * - checkNumber: `POST /user/check` with every form of the number (the send path's cache, wuzapi.numbers.ts);
 * - groupParticipants: `GET /group/info?groupJID=` (a query parameter since the multi-user releases; the older JSON
 *   body of a GET is gone): members by phone (PhoneNumber beside a LID), admins and super admins as admins. Wuzapi
 *   gives no member names there, so names are left to the messages members write;
 * - listGroups: `GET /group/list`, ids as the group's contact stores them (the full `...@g.us` JID, wuzapi.parse.ts);
 * - listContacts: `GET /user/contacts` (whatsmeow's contact store by JID): people only (phone JIDs), the
 *   ninth-digit rule applied, the name the phone book gives (FullName, FirstName) or else the push or business name;
 * - fetchHistory: `GET /chat/history?chat_jid=&limit=` (Wuzapi v1.0 and later, with the user's `history` setting
 *   above 0; otherwise Wuzapi answers 501 and this fails for good): the stored messages of the chat, newest first. A
 *   row keeps the events.Message it was saved from (`data_json`), parsed by the webhook's message parser; rows
 *   without it (Wuzapi's record of our own API sends) are skipped, ingestion has those. A number's chat is asked
 *   under its phone JID and, when Wuzapi knows one (`GET /user/lid/{jid}`), its LID. Every chat (chatId null): the
 *   user's chats from the history index (`chat_jid=index`, keyed by the Wuzapi user id `GET /session/status` gives);
 * - sendMention: `POST /chat/send/text` with `ContextInfo.MentionedJID` (the phone JIDs WhatsApp knows). The id is
 *   ours and marked (newWuzapiMessageId) but random: the operation carries no stored message id to seed it with.
 */
import type { ZodType } from 'zod';
import {
  ProviderError,
  type ChannelCredentials,
  type GatewayLive,
  type GroupParticipant,
  type InboundEvent,
  type SendResult,
} from '../../channels.adapter.js';
import { wuzapiTarget, type WuzapiClient, type WuzapiTarget } from './wuzapi.client.js';
import type { WuzapiNumbers } from './wuzapi.numbers.js';
import { messageEvents, phoneOf } from './wuzapi.parse.js';
import {
  wuzapiContactsSchema,
  wuzapiGroupInfoSchema,
  wuzapiGroupListSchema,
  wuzapiHistoryIndexSchema,
  wuzapiHistoryRowsSchema,
  wuzapiLidSchema,
  wuzapiStatusIdSchema,
} from './wuzapi.live.schemas.js';

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

/** Answer bounds: a phone book or a group list of thousands, stored history with media thumbnails in each row. */
export const WUZAPI_LIVE_MAX_BYTES = {
  groups: 16 * 1024 * 1024,
  contacts: 16 * 1024 * 1024,
  history: 32 * 1024 * 1024,
} as const;

export interface WuzapiLiveDeps {
  client: WuzapiClient;
  numbers: WuzapiNumbers;
  newMessageId: (secret: string, seed?: string) => string;
  /** The adapter's send: a /chat/send/* call whose answer becomes a SendResult. */
  post: (target: WuzapiTarget, path: string, body: Record<string, unknown>) => Promise<SendResult>;
}

const phoneJid = (digits: string) => `${digits}@s.whatsapp.net`;
const query = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');

export function createWuzapiLive(deps: WuzapiLiveDeps) {
  const { client, numbers } = deps;

  return (channel: ChannelCredentials): GatewayLive => {
    const get = <T>(path: string, schema: ZodType<T>, maxBytes?: number) =>
      client.call(wuzapiTarget(channel), 'GET', path, null, schema, maxBytes ? { maxBytes } : {});

    /** The JIDs Wuzapi may have stored a chat under: a group as it is; a number by phone JID and, if known, LID. */
    async function chatJids(chatId: string): Promise<string[]> {
      if (chatId.includes('@')) return [chatId];
      const jid = phoneJid((await numbers.lookup(channel, chatId)).phone);
      const lid = await get(`/user/lid/${encodeURIComponent(jid)}`, wuzapiLidSchema).catch((error: unknown) => {
        if (error instanceof ProviderError && error.status === 404) return null; // No LID known for the number.
        throw error;
      });
      return lid ? [jid, lid.lid] : [jid];
    }

    async function everyChat(): Promise<string[]> {
      const { id } = await get('/session/status', wuzapiStatusIdSchema);
      if (!id) throw new ProviderError('wuzapi: the gateway does not tell its user id (no history index)', true);
      const index = await get(`/chat/history?${query({ chat_jid: 'index' })}`, wuzapiHistoryIndexSchema);
      return (index?.[id] ?? []).map((chat) => chat.chat_jid);
    }

    return {
      async checkNumber(number) {
        const found = await numbers.lookup(channel, number);
        return { exists: found.exists, number: found.number };
      },

      async groupParticipants(groupId) {
        const jid = groupId.includes('@') ? groupId : `${groupId}@g.us`;
        const group = await get(`/group/info?${query({ groupJID: jid })}`, wuzapiGroupInfoSchema);
        const members: GroupParticipant[] = [];
        for (const member of group.Participants ?? []) {
          const number = phoneOf(member.PhoneNumber ?? undefined, member.JID ?? undefined);
          // whatsmeow sets IsAdmin for super admins (the group's creator) too.
          if (number) members.push({ number, name: null, isAdmin: Boolean(member.IsAdmin) });
        }
        return members;
      },

      async listGroups() {
        const list = await get('/group/list', wuzapiGroupListSchema, WUZAPI_LIVE_MAX_BYTES.groups);
        return (list.Groups ?? []).map((group) => ({
          id: group.JID,
          subject: group.Name ?? '',
          participants: group.Participants?.length ?? 0,
        }));
      },

      async listContacts() {
        const book = await get('/user/contacts', wuzapiContactsSchema, WUZAPI_LIVE_MAX_BYTES.contacts);
        const people = new Map<string, string | null>();
        for (const [jid, info] of Object.entries(book ?? {})) {
          const number = phoneOf(jid); // Phone JIDs only: LIDs, groups, broadcasts are not people in the book.
          if (!number) continue;
          const name = info.FullName || info.FirstName || info.PushName || info.BusinessName || null;
          if (!people.has(number) || (name && !people.get(number))) people.set(number, name);
        }
        return [...people].map(([number, name]) => ({ number, name }));
      },

      async fetchHistory(chatId, limit) {
        const chats = chatId === null ? await everyChat() : await chatJids(chatId);
        const events: MessageEvent[] = [];
        const seen = new Set<string>();
        for (const chat of chats) {
          if (events.length >= limit) break;
          const path = `/chat/history?${query({ chat_jid: chat, limit: limit - events.length })}`;
          const rows = await get(path, wuzapiHistoryRowsSchema, WUZAPI_LIVE_MAX_BYTES.history);
          for (const row of rows ?? []) {
            if (seen.has(row.message_id)) continue;
            seen.add(row.message_id);
            events.push(...storedEvents(row.data_json ?? ''));
          }
        }
        return events;
      },

      async sendMention(to, body, mentions) {
        if (!body) throw new ProviderError('wuzapi: empty message', true);
        const phone = await numbers.phoneFor(channel, to);
        const mentioned = (await numbers.phonesFor(channel, mentions)).map((p) => (p.includes('@') ? p : phoneJid(p)));
        return deps.post(wuzapiTarget(channel), '/chat/send/text', {
          Phone: phone,
          Body: body,
          Id: deps.newMessageId(channel.webhookSecret),
          ContextInfo: { MentionedJID: mentioned },
        });
      },
    };
  };
}

/** The message events of a stored events.Message (a row's data_json); nothing when it is not one. */
function storedEvents(dataJson: string): MessageEvent[] {
  try {
    return messageEvents(JSON.parse(dataJson)).filter((event): event is MessageEvent => event.kind === 'message');
  } catch {
    return [];
  }
}
