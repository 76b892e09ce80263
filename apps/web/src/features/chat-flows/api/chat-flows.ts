/**
 * Chat flows' calls (client-contract §13): the list is wrapped (`{ chatFlow }`), a flow is the whole record with its
 * graph; the builder reads one flow and saves it whole.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chatFlowDtoSchema, type ChatFlowDto, type ChatFlowInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { chatFlowListQueryOptions } from '../../../lib/chat-flows';
import { queryKeys } from '../../../lib/query-keys';

export const chatFlowKeys = {
  all: queryKeys.chatFlows,
  one: (id: number) => [...queryKeys.chatFlows, id] as const,
};

/** GET /chat-flow: the list the pickers of other screens share; this screen reads it fresh on every visit. */
export const useChatFlowList = () => useQuery({ ...chatFlowListQueryOptions({ background: false }), staleTime: 0 });

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
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFlows();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: ChatFlowInput }): Promise<ChatFlowDto> =>
      chatFlowDtoSchema.parse(
        id === undefined ? await api.post('/chat-flow', input) : await api.put(`/chat-flow/${id}`, input),
      ),
    onSuccess: (saved) => {
      // The saved record shows at once (the list's switch does not flip back while the list is read again).
      queryClient.setQueryData<ChatFlowDto[]>(chatFlowKeys.all, (list) =>
        list?.map((flow) => (flow.id === saved.id ? saved : flow)),
      );
      invalidate();
    },
    meta: { handlesErrors: true },
  });
}

/** DELETE /chat-flow/{id}: 409 ERR_AUTO_REPLY_RELATIONED_TICKET while a ticket runs it (toast by the query client). */
export function useDeleteChatFlow() {
  const invalidate = useInvalidateFlows();
  return useMutation({ mutationFn: (id: number) => api.delete<unknown>(`/chat-flow/${id}`), onSuccess: invalidate });
}

/** POST /chat-flow-duplicate with the record (the server reads its id): the copy, inactive, without test number. */
export function useDuplicateChatFlow() {
  const invalidate = useInvalidateFlows();
  return useMutation({
    mutationFn: async (flow: ChatFlowDto): Promise<ChatFlowDto> =>
      chatFlowDtoSchema.parse(
        await api.post('/chat-flow-duplicate', {
          id: flow.id,
          name: flow.name,
          isActive: flow.isActive,
          celularTeste: flow.celularTeste,
          flow: flow.flow,
        }),
      ),
    onSuccess: invalidate,
  });
}

/** PUT /chat-flow-import/{id}: the imported JSON plus `id`; the server replaces that flow's graph only. */
export function useImportChatFlow() {
  // The list's key prefixes every flow's key: the builder reads the imported graph too.
  const invalidate = useInvalidateFlows();
  return useMutation({
    mutationFn: async ({ id, imported }: { id: number; imported: Record<string, unknown> }): Promise<unknown> =>
      api.put(`/chat-flow-import/${id}`, { ...imported, id }),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}
