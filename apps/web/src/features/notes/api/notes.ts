import { useEffect } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NOTES_PAGE_SIZE, ticketNotePageSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
import { registerRealtimeHandler, type RealtimeHandler } from '../../../lib/realtime-registry';

const NOTES_PAGES = ['ticketNotes', 'page'] as const;

/** GET /ticketNotes/list?searchParam&pageNumber -> { ticketNotes, count, hasMore }: notes of the tickets one may see. */
export const useNotesPage = (searchParam: string, pageNumber: number) =>
  useQuery({
    queryKey: [...NOTES_PAGES, { searchParam, pageNumber }],
    queryFn: async () =>
      ticketNotePageSchema.parse(
        await api.get('/ticketNotes/list', {
          query: { searchParam, pageNumber, rowsPerPage: NOTES_PAGE_SIZE },
          background: true,
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Notes written, edited or deleted elsewhere refresh the loaded pages (their order and count are the server's). */
const notesPagesRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const refresh = () => void queryClient.invalidateQueries({ queryKey: NOTES_PAGES });
  socket.on(`${T}:ticketNote`, refresh);
  return () => {
    socket.off(`${T}:ticketNote`, refresh);
  };
};

export function useNotesPagesLive(): void {
  useEffect(() => registerRealtimeHandler(notesPagesRealtime), []);
}
