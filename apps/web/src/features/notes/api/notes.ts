import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NOTES_PAGE_SIZE, ticketNotePageSchema } from '@conversa/shared';
import { api } from '../../../lib/api';

/** GET /ticketNotes/list?searchParam&pageNumber -> { ticketNotes, count, hasMore }: notes of the tickets one may see. */
export const useNotesPage = (searchParam: string, pageNumber: number) =>
  useQuery({
    queryKey: ['ticketNotes', 'page', { searchParam, pageNumber }],
    queryFn: async () =>
      ticketNotePageSchema.parse(
        await api.get('/ticketNotes/list', {
          query: { searchParam, pageNumber, rowsPerPage: NOTES_PAGE_SIZE },
          background: true,
        }),
      ),
    placeholderData: keepPreviousData,
  });
