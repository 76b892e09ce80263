/**
 * Notes among the chat's messages: each note becomes a history item (`mediaType 'notes'`, client-contract §20.3) at
 * its time. While older pages remain, notes older than the oldest loaded message wait for their page, so loading it
 * only prepends items (the list's `firstItemIndex` stays right).
 */
import type { TicketDto, TicketNoteDto } from '@conversa/shared';
import type { ChatMessage } from './messages-cache';

/** The key prefix of note items (`idFront`), so they never collide with a message's key. */
const NOTE_KEY = 'note:';

export const isNoteItem = (message: ChatMessage): boolean => message.mediaType === 'notes';
export const noteIdOf = (message: ChatMessage): number => -message.id;

export function noteAsMessage(note: TicketNoteDto, ticket: TicketDto): ChatMessage {
  return {
    id: -note.id,
    messageId: null,
    ticketId: note.ticketId,
    contactId: ticket.contactId,
    body: note.notes,
    mediaType: 'notes',
    mediaUrl: null,
    mediaName: null,
    mediaMime: null,
    mediaSize: null,
    mediaStatus: 'none',
    fromMe: true,
    read: true,
    ack: 0,
    status: 'sended',
    sendType: null,
    isDelayed: false,
    sendError: null,
    isDeleted: false,
    deletedAt: null,
    edition: null,
    editedAt: note.updatedAt !== note.createdAt ? note.updatedAt : null,
    reaction: null,
    reactionFromMe: null,
    isSticker: false,
    idFront: `${NOTE_KEY}${note.id}`,
    meta: null,
    quotedMsg: null,
    contact: null,
    user: note.userId === null || !note.user ? null : { id: note.userId, name: note.user.name },
    ticket: {
      id: ticket.id,
      status: ticket.status,
      userId: ticket.userId,
      unreadMessages: ticket.unreadMessages,
      answered: ticket.answered,
      createdAt: ticket.createdAt,
    },
    scheduleDate: null,
    timestamp: null,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}

const timeOf = (iso: string) => Date.parse(iso) || 0;

/**
 * The history with the notes merged by time. `olderCount` (the items of older pages) grows by the notes placed
 * before the newest page's first item.
 */
export function mergeNotes(
  items: ChatMessage[],
  olderCount: number,
  notes: TicketNoteDto[] | undefined,
  ticket: TicketDto,
  hasOlder: boolean,
): { items: ChatMessage[]; olderCount: number } {
  if (!notes?.length) return { items, olderCount };
  const oldest = items[0] ? timeOf(items[0].createdAt) : -Infinity;
  const pending = notes
    .filter((note) => !hasOlder || timeOf(note.createdAt) >= oldest)
    .map((note) => noteAsMessage(note, ticket))
    .sort((a, b) => timeOf(a.createdAt) - timeOf(b.createdAt) || b.id - a.id);
  const merged: ChatMessage[] = [];
  let next = 0;
  let mergedOlder = olderCount;
  items.forEach((item, index) => {
    // Bubbles still being sent from here stay last, after every note.
    const at = item.localState === undefined ? timeOf(item.createdAt) : Infinity;
    while (next < pending.length && timeOf(pending[next]!.createdAt) <= at) {
      merged.push(pending[next]!);
      next += 1;
      if (index <= olderCount) mergedOlder += 1;
    }
    merged.push(item);
  });
  return { items: [...merged, ...pending.slice(next)], olderCount: mergedOlder };
}
