/** POST /messages/listParticipants { ticket } (client-contract §5.1): a group ticket's participants, for mentions. */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const participantSchema = z.object({ number: z.string(), name: z.string().nullable() });
export type GroupParticipant = z.infer<typeof participantSchema>;

/** Read when the picker first opens, then kept for a few minutes (a group's members rarely change mid-chat). */
export const useGroupParticipants = (ticketId: number, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.groupParticipants(ticketId),
    queryFn: async ({ signal }) =>
      z
        .object({ participants: z.array(participantSchema) })
        .parse(await api.post('/messages/listParticipants', { ticket: ticketId }, { signal, background: true }))
        .participants,
    enabled,
    staleTime: 5 * 60_000,
  });
