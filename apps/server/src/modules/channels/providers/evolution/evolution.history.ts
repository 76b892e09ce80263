/**
 * The login's history import for Evolution channels (channel option importMessages, HistoryImportOptions). A channel
 * that imports it has its instance created with `syncFullHistory` and the `MESSAGES_SET` webhook registered: after the
 * login Evolution posts each history chunk WhatsApp sends as one `messages.set` call whose data is the list of the
 * chunk's new messages (`prepareMessage` records, the same as `messages.upsert` data). Each chunk becomes a
 * `history-import` event with the running total followed by its messages marked `imported`, kept only within the
 * options' dates (both bounds inclusive, either optional) and, for group chats, only when groups are imported. Other
 * kinds a record may parse to (reactions, edits, revokes of older messages) are left out, as for Baileys.
 *
 * The end: Evolution forwards neither Baileys' `isLatest` nor its `progress` (the `messages.set` data is the bare
 * list), and no other event marks the history's end. So the rule is a quiet period: the import has ended once no
 * chunk came for `quietMs`. A webhook adapter cannot speak unasked, so that end (`history-import` with `done`) goes
 * before the events of the channel's first webhook call that arrives after the quiet period (any event: a message,
 * a receipt, a connection change). The running totals live in this process, like ingestion's import tracker.
 * Without importMessages `messages.set` is not registered, and a stray one yields nothing.
 */
import type { HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';
import { parseEvolutionMessage } from './evolution.parse.js';
import { evoWebhookSchema } from './evolution.schemas.js';

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

/** Default quiet period after the last chunk that ends an import. */
export const EVOLUTION_HISTORY_QUIET_MS = 60_000;

const within = (time: number, options: HistoryImportOptions): boolean =>
  (options.from === null || time >= options.from) && (options.to === null || time <= options.to);

/** A record to its message event; null for other kinds, records without a time, and records it cannot read. */
export function storedMessageEvent(record: unknown): MessageEvent | null {
  try {
    const event = parseEvolutionMessage(record);
    return event?.kind === 'message' ? event : null;
  } catch {
    // One unreadable record does not sink the chunk (or the page) it came in.
    return null;
  }
}

/** The imported message events of one history chunk (messages.set data), in the chunk's order. */
export function historyEvents(records: readonly unknown[], options: HistoryImportOptions): MessageEvent[] {
  const events: MessageEvent[] = [];
  for (const record of records) {
    const time = (record as { messageTimestamp?: unknown } | null)?.messageTimestamp;
    // Without a time a message cannot be placed in the window (the parser would give it "now").
    if (!time) continue;
    const event = storedMessageEvent(record);
    if (!event || (event.party.isGroup && !options.groups) || !within(event.timestamp, options)) continue;
    events.push({ ...event, imported: true });
  }
  return events;
}

/**
 * The imported messages of a webhook call when it is a `messages.set` of this channel's instance; null for any other
 * call (the ordinary parser reads it). Throws a ZodError on a malformed envelope.
 */
export function parseHistoryBatch(
  body: unknown,
  instanceName: string | null,
  options: HistoryImportOptions,
): MessageEvent[] | null {
  const envelope = evoWebhookSchema.parse(body);
  if (envelope.event.toLowerCase().replace(/_/g, '.') !== 'messages.set') return null;
  if (instanceName && envelope.instance && envelope.instance !== instanceName) return [];
  return historyEvents(Array.isArray(envelope.data) ? envelope.data : [], options);
}

/** The running import of each channel: the total handed over, and when its last chunk came. */
export function createHistoryImports(options: { quietMs?: number; now?: () => number } = {}) {
  const quietMs = options.quietMs ?? EVOLUTION_HISTORY_QUIET_MS;
  const now = options.now ?? (() => Date.now());
  const running = new Map<number, { total: number; lastAt: number }>();

  return {
    /** A new login: whatever ran before is forgotten (its end never came). */
    reset(channelId: number): void {
      running.delete(channelId);
    },
    /**
     * The events of one webhook call of the channel: the end of an import gone quiet first, then a chunk announced
     * with the running total (`batch`: the call's imported messages, null when the call is no history chunk), or the
     * call's ordinary events.
     */
    events(channelId: number, batch: MessageEvent[] | null, ordinary: InboundEvent[]): InboundEvent[] {
      const out: InboundEvent[] = [];
      const at = now();
      const current = running.get(channelId);
      if (current && at - current.lastAt >= quietMs) {
        running.delete(channelId);
        out.push({ kind: 'history-import', total: current.total, done: true });
      }
      if (batch === null) return [...out, ...ordinary];
      const state = running.get(channelId);
      if (batch.length === 0) {
        if (state) state.lastAt = at;
        return out;
      }
      const total = (state?.total ?? 0) + batch.length;
      running.set(channelId, { total, lastAt: at });
      return [...out, { kind: 'history-import', total, done: false }, ...batch];
    },
  };
}
