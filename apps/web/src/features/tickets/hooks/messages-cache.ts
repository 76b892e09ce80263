/**
 * Pure helpers over the cached chat history (queryKeys.messages(ticketId)): an infinite query of
 * MessageListResponse pages, page 1 (index 0) the newest. Used by ../api/realtime.ts (chat:* events) and by the chat's own
 * mutations (optimistic bubbles, edits, deletions), so both paths change the cache the same way.
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { MessageDto } from '@conversa/shared';

/** Where a message sent from this browser stands before the server's copy replaces it. */
export type LocalSendState = 'sending' | 'sent' | 'failed';

/** A message as cached: the server's DTO (its `idFront` echoes the sender's), plus a local state for bubbles sent
 * from here that the server's copy has not replaced yet. */
export type ChatMessage = MessageDto & { localState?: LocalSendState };

export interface MessagesPage {
  messages: ChatMessage[];
  messagesOffLine: ChatMessage[];
  hasMore: boolean;
}
export type MessagesData = InfiniteData<MessagesPage>;

const sortKey = (message: MessageDto): number => {
  const time = Date.parse(message.createdAt);
  return Number.isNaN(time) ? 0 : time;
};

function mapPages(data: MessagesData, map: (list: ChatMessage[]) => ChatMessage[]): MessagesData {
  let changed = false;
  const pages = data.pages.map((page) => {
    const messages = map(page.messages);
    const messagesOffLine = map(page.messagesOffLine);
    if (messages === page.messages && messagesOffLine === page.messagesOffLine) return page;
    changed = true;
    return { ...page, messages, messagesOffLine };
  });
  return changed ? { ...data, pages } : data;
}

function replaceWhere(list: ChatMessage[], match: (m: ChatMessage) => boolean, next: ChatMessage): ChatMessage[] {
  const index = list.findIndex(match);
  if (index < 0) return list;
  const copy = [...list];
  copy[index] = next;
  return copy;
}

function findIn(data: MessagesData, match: (m: ChatMessage) => boolean): boolean {
  return data.pages.some((page) => page.messages.some(match) || page.messagesOffLine.some(match));
}

/** Replaces the message with the same id wherever it is cached; the same data when no page holds it. */
export function replaceMessage(data: MessagesData, message: MessageDto): MessagesData {
  return mapPages(data, (list) => replaceWhere(list, (m) => m.id === message.id, message));
}

/** Applies a change to the cached message with this id (an edit or a deletion confirmed by the server). */
export function patchMessage(data: MessagesData, id: number, patch: Partial<MessageDto>): MessagesData {
  return mapPages(data, (list) => {
    const current = list.find((m) => m.id === id);
    return current ? replaceWhere(list, (m) => m.id === id, { ...current, ...patch }) : list;
  });
}

/**
 * A new message (chat:create or the server's answer to a send): replaces the copy already cached (same id), else the
 * optimistic bubble with the same idFront, else a bubble sent from here and accepted by a server that did not echo
 * the idFront (same ticket and body); otherwise it goes at the end of the newest page. The socket's copy and the
 * POST's answer race: whichever comes second finds the id cached, and the pending bubble of that idFront goes too.
 */
export function upsertMessage(
  data: MessagesData,
  message: MessageDto,
  idFront = message.idFront ?? undefined,
): MessagesData {
  if (findIn(data, (m) => m.id === message.id)) {
    const replaced = replaceMessage(data, message);
    return idFront ? removeOptimistic(replaced, idFront) : replaced;
  }
  const matchers: ((m: ChatMessage) => boolean)[] = [];
  if (idFront) matchers.push((m) => m.idFront === idFront && m.localState !== undefined);
  if (message.fromMe)
    matchers.push((m) => m.localState === 'sent' && m.ticketId === message.ticketId && m.body === message.body);
  for (const match of matchers) {
    if (findIn(data, match)) return mapPages(data, (list) => replaceWhere(list, match, message));
  }
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, messages: [...first.messages, message] }, ...rest] };
}

/** Puts a bubble sent from here at the end of the newest page. */
export function addOptimistic(data: MessagesData, message: ChatMessage): MessagesData {
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, messages: [...first.messages, message] }, ...rest] };
}

/** Marks the bubble with this idFront (sending, sent, failed). */
export function setOptimisticState(data: MessagesData, idFront: string, localState: LocalSendState): MessagesData {
  return mapPages(data, (list) => {
    const current = list.find((m) => m.idFront === idFront && m.localState !== undefined);
    return current ? replaceWhere(list, (m) => m === current, { ...current, localState }) : list;
  });
}

/** Drops the bubble with this idFront (the user discarded a failed send). */
export function removeOptimistic(data: MessagesData, idFront: string): MessagesData {
  return mapPages(data, (list) =>
    list.some((m) => m.idFront === idFront && m.localState !== undefined)
      ? list.filter((m) => !(m.idFront === idFront && m.localState !== undefined))
      : list,
  );
}

export interface FlatHistory {
  /** Oldest first; each id once; messages still waiting to be sent (messagesOffLine) at the end. */
  items: ChatMessage[];
  /** How many of the items come from pages older than the newest one (Virtuoso's firstItemIndex shifts by it). */
  olderCount: number;
}

/** The history as one list for the chat (pages overlap when messages arrive between page reads). */
export function flattenHistory(data: MessagesData | undefined): FlatHistory {
  if (!data) return { items: [], olderCount: 0 };
  const seen = new Set<number>();
  const take = (list: ChatMessage[]) =>
    list.filter((m) => {
      if (seen.has(m.id)) return false;
      seen.add(m.id);
      return true;
    });
  const byTime = (a: ChatMessage, b: ChatMessage) => sortKey(a) - sortKey(b) || a.id - b.id;
  const [newest, ...older] = data.pages;
  const newestItems = take(newest?.messages ?? []);
  const olderItems = take(older.flatMap((page) => page.messages)).sort(byTime);
  const offline = take(data.pages.flatMap((page) => page.messagesOffLine)).sort(byTime);
  // Bubbles sent from here stay last, in the order they were sent, until the server's copy replaces them.
  const sent = newestItems.filter((m) => m.localState === undefined).sort(byTime);
  const local = newestItems.filter((m) => m.localState !== undefined);
  return { items: [...olderItems, ...sent, ...offline, ...local], olderCount: olderItems.length };
}
