/**
 * The tenant's chat flows as GET /chat-flow answers them (client-contract §13, `{ chatFlow: [...] }`), under one key
 * for every screen that lists or picks them: the chat-flows screen's writes invalidate `queryKeys.chatFlows`, so the
 * channel form, the settings' botTicketActive select and the chat's transfer refresh with it.
 */
import { queryOptions } from '@tanstack/react-query';
import { chatFlowListResponseSchema } from '@conversa/shared';
import { api } from './api';
import { queryKeys } from './query-keys';

export const chatFlowListQueryOptions = (options: { background?: boolean } = {}) =>
  queryOptions({
    queryKey: queryKeys.chatFlows,
    queryFn: async ({ signal }) =>
      chatFlowListResponseSchema.parse(await api.get('/chat-flow', { signal, background: options.background ?? true }))
        .chatFlow,
    staleTime: 60_000,
  });
