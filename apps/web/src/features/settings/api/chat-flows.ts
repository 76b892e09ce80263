/** The flows the setting botTicketActive picks from (lib/chat-flows.ts: the list every screen shares). */
import { useQuery } from '@tanstack/react-query';
import { chatFlowListQueryOptions } from '../../../lib/chat-flows';

export const useChatFlowOptions = () => useQuery(chatFlowListQueryOptions());
