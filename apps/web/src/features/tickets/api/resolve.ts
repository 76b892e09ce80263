/**
 * What the resolve dialog reads and sends: the closing messages library (client-contract §15), the reasons (§8), the
 * tenant's `reasonRequired` setting, and the resolve itself: `PUT /tickets/{id}` without a rating, or our one call
 * `POST /ticketEvaluations/send` that queues the closing message and the rating menu and keeps the ticket open.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ENABLED,
  farewellListResponseSchema,
  reasonListResponseSchema,
  settingDtoSchema,
  ticketDtoSchema,
  type TicketDto,
  type TicketUpdateInput,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const farewellsKey = ['farewells'] as const;
export const reasonsKey = ['reasons'] as const;

/** GET /farewellPrivateMessage/: the closing messages a resolve may send. */
export const useFarewellOptions = (enabled: boolean) =>
  useQuery({
    queryKey: farewellsKey,
    enabled,
    queryFn: async () =>
      farewellListResponseSchema.parse(await api.get('/farewellPrivateMessage/', { background: true }))
        .farewellPrivateMessage,
  });

/** GET /reasons/. */
export const useReasonOptions = (enabled: boolean) =>
  useQuery({
    queryKey: reasonsKey,
    enabled,
    queryFn: async () => reasonListResponseSchema.parse(await api.get('/reasons/', { background: true })).reasons,
  });

/** Whether the tenant requires a reason to resolve (`reasonRequired`, from the settings list). */
export const useReasonRequired = (enabled: boolean) => {
  const settings = useQuery({
    queryKey: queryKeys.settings,
    enabled,
    queryFn: async () => z.array(settingDtoSchema).parse(await api.get('/settings/', { background: true })),
  });
  return settings.data?.some((s) => s.key === 'reasonRequired' && s.value === ENABLED) ?? false;
};

/** A rating can be asked on a private ticket whose channel sends ratings (client-contract §4.3). */
export const ratingAvailable = (ticket: TicketDto): boolean =>
  ticket.status === 'open' && !ticket.isGroup && ticket.whatsapp?.sendEvaluation === ENABLED;

export type ResolveRequest =
  | { kind: 'close'; body: TicketUpdateInput }
  | {
      kind: 'rating';
      body: { ticketId: number; reasons?: number | null; farewellMessage?: string; sendFarewell?: boolean };
    };

/** The resolve: errors are shown by the dialog (it stays open). */
export function useResolveTicket(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async (request: ResolveRequest) => {
      if (request.kind === 'close') {
        const answer = await api.put<unknown>(`/tickets/${ticketId}`, request.body);
        const ticket = ticketDtoSchema.safeParse(answer);
        if (ticket.success) queryClient.setQueryData<TicketDto>(queryKeys.ticket(ticketId), ticket.data);
        return;
      }
      await api.post<unknown>('/ticketEvaluations/send', request.body);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.ticket(ticketId), exact: true }),
  });
}
