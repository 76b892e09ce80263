/**
 * The campaigns screens' calls (client-contract §12 `/campaigns`, ARCHITECTURE §6l): the list and one campaign, the
 * form (JSON body of campaignInputSchema), start, cancel, duplicate, delete, and the recipients (list, add contacts,
 * add by tags, remove one, remove all). `{T}:campaign { action, id }` re-reads every campaign query while a campaigns
 * screen is mounted (registered through lib/realtime-registry.ts).
 */
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  queueDtoSchema,
  campaignDtoSchema,
  campaignDuplicateResponseSchema,
  campaignListResponseSchema,
  campaignRecipientListSchema,
  channelDtoSchema,
  contactListResponseSchema,
  type CampaignDto,
  type CampaignMessageOrder,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { registerRealtimeHandler, type RealtimeHandler } from '../../../lib/realtime-registry';

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: ['campaigns', 'list'] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  recipients: (id: number) => ['campaigns', 'recipients', id] as const,
};

/** The form's body (campaignInputSchema): `start` is `yyyy-MM-dd HH:mm` on the company's wall clock. */
export interface CampaignBody {
  name: string;
  start: string | null;
  sessionId: number | null;
  delay: number;
  message1: string | null;
  message2: string | null;
  message3: string | null;
  mediaUrl: string | null;
  queueId: number | null;
  messageOrder: CampaignMessageOrder;
}

/** GET /campaigns. */
export const useCampaigns = () =>
  useQuery({
    queryKey: campaignKeys.list,
    queryFn: async () => campaignListResponseSchema.parse(await api.get('/campaigns', { background: true })),
  });

/** GET /campaigns/{id}. */
export const useCampaign = (id: number) =>
  useQuery({
    queryKey: campaignKeys.detail(id),
    queryFn: async () => campaignDtoSchema.parse(await api.get(`/campaigns/${id}`, { background: true })),
  });

/** GET /campaigns/contacts/{id}: the recipients with their tags and delivery state. */
export const useCampaignRecipients = (id: number) =>
  useQuery({
    queryKey: campaignKeys.recipients(id),
    queryFn: async () =>
      campaignRecipientListSchema.parse(await api.get(`/campaigns/contacts/${id}`, { background: true })),
  });

/** The form's channel picker (GET /whatsapp/, the same query every channel picker reads). */
export const useCampaignChannels = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.channels,
    queryFn: async () => z.array(channelDtoSchema).parse(await api.get('/whatsapp/', { background: true })),
    enabled,
    staleTime: 60_000,
  });

/**
 * The form's queue picker (GET /queue/). Parsed with the whole DTO: the cache key is the queues screen's too, and a
 * narrower schema would strip the fields that screen reads.
 */
export const useCampaignQueues = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async () => z.array(queueDtoSchema).parse(await api.get('/queue/', { background: true })),
    enabled,
    staleTime: 60_000,
  });

/** The recipients picker: GET /contacts/?searchParam (the first page of matches). */
export const useContactSearch = (search: string, enabled = true) =>
  useQuery({
    queryKey: ['contacts', 'list', { searchParam: search, pageNumber: 1, purpose: 'campaign' }],
    queryFn: async () =>
      contactListResponseSchema.parse(
        await api.get('/contacts/', { query: { searchParam: search, pageNumber: 1 }, background: true }),
      ).contacts,
    enabled,
    staleTime: 30_000,
  });

function useInvalidateCampaigns() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
}

/** POST /campaigns or PUT /campaigns/{id}; errors are shown by the form. */
export function useSaveCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: number; body: CampaignBody }): Promise<CampaignDto> =>
      campaignDtoSchema.parse(
        id === undefined ? await api.post('/campaigns', body) : await api.put(`/campaigns/${id}`, body),
      ),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** POST /campaigns/start/{id}. */
export function useStartCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: async (id: number) => campaignDtoSchema.parse(await api.post(`/campaigns/start/${id}`, {})),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** POST /campaigns/cancel/{id}. */
export function useCancelCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: async (id: number) => campaignDtoSchema.parse(await api.post(`/campaigns/cancel/${id}`, {})),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** POST /campaigns/{id}/duplicate -> { status: 'success', data }. */
export function useDuplicateCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: async (id: number) =>
      campaignDuplicateResponseSchema.parse(await api.post(`/campaigns/${id}/duplicate`, {})).data,
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /campaigns/{id}. */
export function useDeleteCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/campaigns/${id}`),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

const addedSchema = z.object({ added: z.number() });

/** POST /campaigns/contacts/{id} with `[{ id }]`. */
export function useAddCampaignContacts(campaignId: number) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: async (contactIds: number[]) =>
      addedSchema.parse(
        await api.post(
          `/campaigns/contacts/${campaignId}`,
          contactIds.map((id) => ({ id })),
        ),
      ),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** POST /campaigns/{id}/contacts/tags { tagIds }. */
export function useAddCampaignTags(campaignId: number) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: async (tagIds: number[]) =>
      addedSchema.parse(await api.post(`/campaigns/${campaignId}/contacts/tags`, { tagIds })),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /campaigns/contacts/{id}/{contactId}. */
export function useRemoveCampaignContact(campaignId: number) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (contactId: number) => api.delete<unknown>(`/campaigns/contacts/${campaignId}/${contactId}`),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /campaigns/deleteall/contacts/{id}. */
export function useRemoveAllCampaignContacts(campaignId: number) {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: () => api.delete<unknown>(`/campaigns/deleteall/contacts/${campaignId}`),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** `{T}:campaign { action, id }`: counts, progress and states are read again. */
export const campaignsRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const onCampaign = () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
  socket.on(`${T}:campaign`, onCampaign);
  return () => {
    socket.off(`${T}:campaign`, onCampaign);
  };
};

/**
 * Keeps the campaign queries live while a campaigns screen is mounted. Each screen registers a handler of its own, so
 * one screen's unmount never stops another's.
 */
export function useCampaignsLive(): void {
  useEffect(() => registerRealtimeHandler((socket, queryClient, T) => campaignsRealtime(socket, queryClient, T)), []);
}
