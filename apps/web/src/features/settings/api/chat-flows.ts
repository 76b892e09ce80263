/**
 * The flows the setting botTicketActive picks from (GET /chat-flow, client-contract §13). The chat-flows screen keeps
 * the same list under the same key, so its writes refresh this select too.
 */
import { useQuery } from '@tanstack/react-query';
import { chatFlowListResponseSchema } from '@conversa/shared';
import { api } from '../../../lib/api';

const chatFlowsKey = ['chat-flows'] as const;

export const useChatFlowOptions = () =>
  useQuery({
    queryKey: chatFlowsKey,
    queryFn: async () => chatFlowListResponseSchema.parse(await api.get('/chat-flow', { background: true })).chatFlow,
    staleTime: 60_000,
  });
