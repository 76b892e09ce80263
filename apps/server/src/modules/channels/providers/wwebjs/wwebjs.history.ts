/**
 * The login's history as imported messages, for whatsapp-web.js (Baileys: baileys.history.ts). WhatsApp Web pushes no
 * history to the client: after a fresh login (a QR code or a pairing code was shown in this session, not a resume),
 * when the channel's `importMessages` is on, the driver reads it: the chats (groups only when the channel imports
 * them), up to `HISTORY_PER_CHAT` recent messages of each, kept when their time lies within the channel's
 * [importOldMessages, importRecentMessages] (both optional, inclusive). They become message events marked `imported`,
 * each chat's announced by a `history-import` event with the running total, and one `history-import` with `done` at
 * the end; ingestion stores them once (idempotent on the provider id) and reports the progress.
 */
import type { HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

/** How many recent messages of each chat a login imports. */
export const HISTORY_PER_CHAT = 200;

/** The slice of whatsapp-web.js' Chat the import reads. */
export interface HistoryChat {
  id: { _serialized: string };
  isGroup?: boolean;
  fetchMessages(options: { limit: number }): Promise<unknown[]>;
}

const ignoredChat = (id: string) => /@(broadcast|newsletter)$/.test(id);

const within = (time: number, options: HistoryImportOptions): boolean =>
  (options.from === null || time >= options.from) && (options.to === null || time <= options.to);

export async function importHistory(deps: {
  chats: () => Promise<HistoryChat[]>;
  options: HistoryImportOptions;
  /** The events of one message (the live path's parse, LIDs and group names resolved). */
  eventsOf: (message: unknown) => Promise<InboundEvent[]>;
  emit: (events: InboundEvent[]) => Promise<void>;
  stopped: () => boolean;
}): Promise<number> {
  const { options } = deps;
  let total = 0;
  for (const chat of await deps.chats()) {
    if (deps.stopped()) return total;
    const id = chat.id._serialized;
    if (ignoredChat(id) || (chat.isGroup && !options.groups)) continue;
    const imported: MessageEvent[] = [];
    for (const message of await chat.fetchMessages({ limit: HISTORY_PER_CHAT })) {
      for (const event of await deps.eventsOf(message)) {
        if (event.kind !== 'message' || (event.party.isGroup && !options.groups)) continue;
        if (!within(event.timestamp, options)) continue;
        imported.push({ ...event, imported: true });
      }
    }
    if (imported.length === 0) continue;
    total += imported.length;
    await deps.emit([{ kind: 'history-import', total, done: false }, ...imported]);
  }
  if (!deps.stopped()) await deps.emit([{ kind: 'history-import', total, done: true }]);
  return total;
}
