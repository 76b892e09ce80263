/**
 * WhatsApp Cloud API templates in the chat (decisions of issue 15, client-contract §7.2): the channel's cached
 * templates (`GET /wabametaTemplate/{channelId}`, `refresh=true` syncs them from Meta first) and the template send
 * (`POST /wabametaTemplateComponents`), whose stored message lands in the cached history at once.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  messageDtoSchema,
  wabaTemplateListResponseSchema,
  type WabaTemplateDto,
  type WabaTemplateSendInput,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { upsertMessage } from '../hooks/messages-cache';
import { updateMessages } from './messages';

export type WabaTemplate = WabaTemplateDto;

export const wabaTemplatesKey = (channelId: number) => ['wabaTemplates', channelId] as const;

const fetchTemplates = async (channelId: number, refresh: boolean, signal?: AbortSignal) =>
  wabaTemplateListResponseSchema.parse(
    await api.get(`/wabametaTemplate/${channelId}`, { query: { refresh }, signal, background: true }),
  ).data;

/** The channel's cached templates (the server syncs them itself when its cache is empty or older than an hour). */
export const useWabaTemplates = (channelId: number, enabled: boolean) =>
  useQuery({
    queryKey: wabaTemplatesKey(channelId),
    queryFn: ({ signal }) => fetchTemplates(channelId, false, signal),
    enabled: enabled && channelId > 0,
    staleTime: 60_000,
  });

/** "Sync": reads the templates again from Meta (refresh=true); the answer replaces the list. */
export function useSyncWabaTemplates(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchTemplates(channelId, true),
    onSuccess: (templates) => queryClient.setQueryData(wabaTemplatesKey(channelId), templates),
  });
}

export interface SendTemplateVariables {
  idFront: string;
  templateName: string;
  language: string;
  components: { type: string; [key: string]: unknown }[];
}

const sendAnswerSchema = z.object({ data: messageDtoSchema });

/** POST /wabametaTemplateComponents; errors are shown by the picker itself (it stays open to correct them). */
export function useSendTemplate(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async (variables: SendTemplateVariables) => {
      const input: WabaTemplateSendInput = { ticketId, ...variables };
      const answer = sendAnswerSchema.safeParse(await api.post('/wabametaTemplateComponents', input));
      return answer.success ? answer.data.data : null;
    },
    onSuccess: (message, { idFront }) => {
      if (message) updateMessages(queryClient, ticketId, (data) => upsertMessage(data, message, idFront));
    },
  });
}
