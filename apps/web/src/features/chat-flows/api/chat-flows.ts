/**
 * Chat flows' calls (client-contract §13): the list is wrapped (`{ chatFlow }`), a flow is the whole record with its
 * graph; the builder reads one flow and saves it whole.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chatFlowDtoSchema, chatFlowListResponseSchema, type ChatFlowDto, type ChatFlowInput } from '@conversa/shared';
import { api } from '../../../lib/api';

export const chatFlowKeys = {
  all: ['chat-flows'] as const,
  one: (id: number) => ['chat-flows', id] as const,
};

/** GET /chat-flow. */
export const useChatFlowList = () =>
  useQuery({
    queryKey: chatFlowKeys.all,
    queryFn: async () => chatFlowListResponseSchema.parse(await api.get('/chat-flow')).chatFlow,
  });

/** GET /chat-flow/{id}: the builder's flow. */
export const useChatFlow = (id: number | null) =>
  useQuery({
    queryKey: chatFlowKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: async () => chatFlowDtoSchema.parse(await api.get(`/chat-flow/${id}`)),
  });

function useInvalidateFlows() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: chatFlowKeys.all });
}

/** POST /chat-flow or PUT /chat-flow/{id} (the whole record). */
export function useSaveChatFlow() {
  const invalidate = useInvalidateFlows();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: ChatFlowInput }): Promise<ChatFlowDto> =>
      chatFlowDtoSchema.parse(
        id === undefined ? await api.post('/chat-flow', input) : await api.put(`/chat-flow/${id}`, input),
      ),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}
