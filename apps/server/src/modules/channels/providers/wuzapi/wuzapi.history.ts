/**
 * The login's history through Wuzapi (H8, channel option importMessages): Wuzapi forwards whatsmeow's
 * events.HistorySync as a `HistorySync` webhook (subscribed only when the channel imports, wuzapiEvents). Each chunk's
 * messages (waWeb.WebMessageInfo in `Data.conversations[].messages[].message`) are turned into the events.Message
 * shape (`{Info, Message}`) and parsed by the webhook's own message parser (wuzapi.parse.ts messageEvents), then
 * kept as imported message events when their time lies within the channel's [from, to] (both inclusive, either
 * optional) and, for group chats, only when the channel imports groups. Edits, revokes and reactions of older
 * messages are left out, as for the other QR channels: the import stores messages.
 *
 * Which chunks: the login's sync types (INITIAL_BOOTSTRAP, RECENT, FULL). ON_DEMAND answers, statuses, push names and
 * non-blocking data are not the login's history.
 *
 * The end: whatsmeow numbers the login's sync with `progress` (0..100) on its RECENT chunks (FULL ones when a full
 * sync was asked for); the chunk that says 100 is the last, so a RECENT or FULL chunk with progress >= 100 ends the
 * import. A phone that never sends it leaves the import open (nothing here can wait for silence: each webhook is
 * parsed on its own).
 */
import type { ChannelCredentials, HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';
import { messageEvents } from './wuzapi.parse.js';
import {
  HISTORY_SYNC_TYPES,
  wuzapiHistorySyncEventSchema,
  wuzapiWebMessageInfoSchema,
  type WuzapiHistorySyncEvent,
} from './wuzapi.live.schemas.js';

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

const LOGIN_SYNCS = new Set<number>([
  HISTORY_SYNC_TYPES.INITIAL_BOOTSTRAP,
  HISTORY_SYNC_TYPES.RECENT,
  HISTORY_SYNC_TYPES.FULL,
]);
const ENDING_SYNCS = new Set<number>([HISTORY_SYNC_TYPES.RECENT, HISTORY_SYNC_TYPES.FULL]);

function syncTypeOf(value: number | string): number {
  if (typeof value === 'number') return value;
  return HISTORY_SYNC_TYPES[value as keyof typeof HISTORY_SYNC_TYPES] ?? -1;
}

const isGroupJid = (jid: string) => jid.endsWith('@g.us');
const within = (time: number, options: HistoryImportOptions) =>
  (options.from === null || time >= options.from) && (options.to === null || time <= options.to);

/** A history message as events.Message: who wrote where (phone JIDs beside LIDs where the chunk maps them). */
function asMessageEvent(
  chat: string,
  chatPn: string | null,
  raw: unknown,
  pnOfLid: Map<string, string>,
): Record<string, unknown> | null {
  const parsed = wuzapiWebMessageInfoSchema.safeParse(raw);
  if (!parsed.success || !parsed.data.message) return null;
  const { key, message, messageTimestamp, participant, pushName } = parsed.data;
  const seconds = Number(messageTimestamp ?? 0);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  const fromMe = key.fromMe ?? false;
  const group = isGroupJid(chat);
  const sender = group ? (key.participant ?? participant ?? '') : fromMe ? '' : chat;
  const alt = (jid: string) => (jid.endsWith('@lid') ? (pnOfLid.get(jid) ?? '') : '');
  const partnerPn = chatPn ?? alt(chat);
  return {
    Info: {
      Chat: chat,
      Sender: sender,
      IsFromMe: fromMe,
      IsGroup: group,
      SenderAlt: group ? alt(sender) : fromMe ? '' : partnerPn,
      RecipientAlt: !group && fromMe ? partnerPn : '',
      ID: key.ID,
      PushName: pushName ?? '',
      Timestamp: new Date(seconds * 1000).toISOString(),
    },
    Message: message,
  };
}

export interface HistoryChunk {
  /** Not the login's history (another sync type): nothing to import. */
  ignored: boolean;
  messages: MessageEvent[];
  /** The login's last chunk. */
  done: boolean;
}

/** The imported messages of one HistorySync webhook event under the channel's options. */
export function historyChunk(raw: unknown, options: HistoryImportOptions): HistoryChunk {
  const data: WuzapiHistorySyncEvent['Data'] = wuzapiHistorySyncEventSchema.parse(raw).Data;
  const syncType = syncTypeOf(data.syncType);
  if (!LOGIN_SYNCS.has(syncType)) return { ignored: true, messages: [], done: false };
  const pnOfLid = new Map<string, string>();
  for (const mapping of data.phoneNumberToLidMappings ?? []) {
    if (mapping.lidJID && mapping.pnJID) pnOfLid.set(mapping.lidJID, mapping.pnJID);
  }
  const messages: MessageEvent[] = [];
  for (const conversation of data.conversations ?? []) {
    const chat = conversation.ID;
    if (isGroupJid(chat) && !options.groups) continue;
    if (chat.endsWith('@broadcast') || chat.endsWith('@newsletter')) continue;
    for (const item of conversation.messages ?? []) {
      const event = asMessageEvent(chat, conversation.pnJID ?? null, item.message, pnOfLid);
      if (!event) continue;
      let parsed: InboundEvent[];
      try {
        parsed = messageEvents(event);
      } catch {
        continue; // One message Wuzapi could not give whole does not drop the chunk.
      }
      for (const one of parsed) {
        if (one.kind !== 'message') continue;
        if (!within(one.timestamp, options)) continue;
        messages.push({ ...one, imported: true });
      }
    }
  }
  const done = ENDING_SYNCS.has(syncType) && (data.progress ?? 0) >= 100;
  return { ignored: false, messages, done };
}

/**
 * The history-import events of HistorySync webhooks, per channel: each chunk announced with the running total of
 * messages handed over (this process's count since the import began), its messages, and after the last chunk the
 * end. Without the channel's importMessages a HistorySync (subscribed earlier, or stray) stores nothing.
 */
export function createWuzapiHistoryImport() {
  const totals = new Map<number, number>();
  return (channel: ChannelCredentials, raw: unknown): InboundEvent[] => {
    const options = channel.historyImport;
    if (!options) return [];
    const chunk = historyChunk(raw, options);
    if (chunk.ignored) return [];
    const total = (totals.get(channel.id) ?? 0) + chunk.messages.length;
    const events: InboundEvent[] = [];
    if (chunk.messages.length > 0 || !chunk.done) events.push({ kind: 'history-import', total, done: false });
    events.push(...chunk.messages);
    if (chunk.done) {
      totals.delete(channel.id);
      events.push({ kind: 'history-import', total, done: true });
    } else {
      totals.set(channel.id, total);
    }
    return events;
  };
}
