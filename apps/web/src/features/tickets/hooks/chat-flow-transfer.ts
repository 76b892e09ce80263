/**
 * The chat's transfer to the chatbot (product-spec §5 "Transfer: to a queue, user, chatbot or channel"): the active
 * flows (GET /chat-flow, readable by every user of the tenant) and PUT /ticketsChatBot/{id} `{ chatFlowId }`, which
 * hands the ticket to that flow (pending, no user; the engine starts the flow).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ticketDtoSchema, type TicketDto } from '@conversa/shared';
import { api } from '../../../lib/api';
import { chatFlowListQueryOptions } from '../../../lib/chat-flows';
import { queryKeys } from '../../../lib/query-keys';

/** The flows a ticket can be handed to: active ones (the list every screen shares, lib/chat-flows.ts). */
export function useActiveChatFlows(enabled: boolean) {
  const query = useQuery({ ...chatFlowListQueryOptions(), enabled });
  return { ...query, flows: (query.data ?? []).filter((flow) => flow.isActive) };
}

/** PUT /ticketsChatBot/{id} { chatFlowId }: the answer is the ticket (it lands in the cache). */
export function useHandToChatBot(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async (chatFlowId: number) => api.put<unknown>(`/ticketsChatBot/${ticketId}`, { chatFlowId }),
    onSuccess: (answer) => {
      const ticket = ticketDtoSchema.safeParse(answer);
      if (ticket.success) queryClient.setQueryData<TicketDto>(queryKeys.ticket(ticketId), ticket.data);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.ticket(ticketId), exact: true });
    },
  });
}
