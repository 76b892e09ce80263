/**
 * Live boards while one is on screen: `{T}:contactList` moves, adds or removes cards (a move by someone else, a
 * contact renamed or tagged), `{T}:kanban` re-reads the lanes board (a deleted lane's cards go to "no lane").
 * Registered through lib/realtime-registry.ts, so lib/realtime-sync.ts imports nothing of this feature.
 */
import { useEffect } from 'react';
import { contactDtoSchema, type ServerToClientEvents } from '@conversa/shared';
import { registerRealtimeHandler, type RealtimeHandler } from '../../../lib/realtime-registry';
import { applyContactToBoards, boardPrefix, removeContactFromBoards } from './board-cache';

type ContactListEvent = Parameters<ServerToClientEvents[`${number}:contactList`]>[0];

export const boardRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const onContactList = (event: ContactListEvent) => {
    if (event.type === 'contact:delete') {
      removeContactFromBoards(queryClient, event.payload.id);
      return;
    }
    const contact = contactDtoSchema.safeParse(event.payload);
    if (contact.success) applyContactToBoards(queryClient, contact.data);
  };
  const onKanban = () => void queryClient.invalidateQueries({ queryKey: boardPrefix('lanes') });
  socket.on(`${T}:contactList`, onContactList);
  socket.on(`${T}:kanban`, onKanban);
  return () => {
    socket.off(`${T}:contactList`, onContactList);
    socket.off(`${T}:kanban`, onKanban);
  };
};

export function useBoardLive(): void {
  useEffect(() => registerRealtimeHandler(boardRealtime), []);
}
