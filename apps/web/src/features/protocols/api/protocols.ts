import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PROTOCOLS_PAGE_SIZE, ticketProtocolPageSchema } from '@conversa/shared';
import { api } from '../../../lib/api';

/** GET /ticketProtocols/?searchParam&date&pageNumber&rowsPerPage -> { ticketProtocols, count, hasMore }. */
export const useProtocolsPage = (searchParam: string, date: string | null, pageNumber: number) =>
  useQuery({
    queryKey: ['ticketProtocols', 'page', { searchParam, date, pageNumber }],
    queryFn: async () =>
      ticketProtocolPageSchema.parse(
        await api.get('/ticketProtocols/', {
          query: { searchParam, date, pageNumber, rowsPerPage: PROTOCOLS_PAGE_SIZE },
          background: true,
        }),
      ),
    placeholderData: keepPreviousData,
  });
