/**
 * The login's history as imported messages (H8): WhatsApp sends a new device the recent history of the number
 * (`messaging-history.set`, chunks of the INITIAL_BOOTSTRAP and RECENT sync types, each with chats, contacts and
 * messages). When the channel's `importMessages` is on, its messages become message events marked `imported`,
 * kept only when their time lies within the channel's [importOldMessages, importRecentMessages] (either bound
 * optional, both inclusive) and, for group chats, only when the channel imports groups (HistoryImportOptions). Other
 * kinds a history message may parse to (edits, revokes, reactions of older messages) are left out: the import stores
 * messages; the phone already shows their final state.
 */
import type { WAMessage } from 'baileys';
import type { HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';
import { parseMessage, type ParseContext } from './baileys.parse.js';

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

export const isGroupJid = (jid: string | null | undefined): boolean => Boolean(jid?.endsWith('@g.us'));

/** The history messages worth looking at under the options (group chats dropped before any lookup when not asked). */
export function historyCandidates(messages: readonly WAMessage[], options: HistoryImportOptions): WAMessage[] {
  return options.groups ? [...messages] : messages.filter((message) => !isGroupJid(message.key.remoteJid));
}

const within = (time: number, options: HistoryImportOptions): boolean =>
  (options.from === null || time >= options.from) && (options.to === null || time <= options.to);

/** The imported message events of a history chunk, in the chunk's order. */
export function historyEvents(
  messages: readonly WAMessage[],
  options: HistoryImportOptions,
  ctx: ParseContext,
  now = Date.now(),
): MessageEvent[] {
  const events: MessageEvent[] = [];
  for (const message of historyCandidates(messages, options)) {
    // A history message without a time cannot be placed in the window: with a bound set it is left out.
    if (!message.messageTimestamp && (options.from !== null || options.to !== null)) continue;
    for (const event of parseMessage(message, ctx, now)) {
      if (event.kind !== 'message') continue;
      if (event.party.isGroup && !options.groups) continue;
      if (!within(event.timestamp, options)) continue;
      events.push({ ...event, imported: true });
    }
  }
  return events;
}
