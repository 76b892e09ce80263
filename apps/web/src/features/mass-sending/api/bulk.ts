/**
 * The mass-sending screen's calls (client-contract §12 `/bulk`): send to a list of numbers (POST /bulk/ as JSON, or
 * POST /bulkClose/ as multipart when a file is attached), send with per-line variables (POST /bulkVariable/), the
 * caller's batches (GET /bulk/), one batch (GET /bulk/{id}, polled every 2 s while it is processing) and cancel
 * (POST /bulk/{id}/cancel). Each answers a batch.
 *
 * The shapes are packages/shared/src/bulk.ts's.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  BULK_CHANNEL_TYPES,
  bulkBatchDtoSchema,
  bulkBatchListSchema,
  channelDtoSchema,
  type BulkBatchDto,
  type ChannelDto,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export {
  BULK_MAX_NUMBERS as BULK_NUMBERS_MAX,
  BULK_MAX_SECONDS as BULK_INTERVAL_MAX_SECONDS,
  BULK_MESSAGE_MAX,
  BULK_MIN_SECONDS as BULK_INTERVAL_MIN_SECONDS,
} from '@conversa/shared';
/** How often a processing batch is read again. */
export const BULK_POLL_MS = 2000;

export type { BulkBatchDto };
export { bulkBatchDtoSchema };
export type BulkBatchStatus = BulkBatchDto['status'];

/** What every send carries: the channel and the pause between two sends (seconds, min < max). */
interface BulkPacing {
  whatsappId: number;
  min: number;
  max: number;
}

/** The attachment by URL: a media with its caption, or an .ogg voice note. */
export interface BulkUrlMedia {
  mediaUrl?: string;
  mediaDescription?: string;
  voiceUrl?: string;
}

/** POST /bulk/: exactly one of message, mediaUrl + mediaDescription, voiceUrl. */
export type BulkSendBody = BulkPacing & BulkUrlMedia & { arrayNumbers: string[]; message?: string };

/** POST /bulkVariable/: `number` holds the lines "number,var1,var2". */
export type BulkVariableBody = BulkPacing & BulkUrlMedia & { number: string; message: string };

/** POST /bulkClose/: a file with its caption; `voice` sends an audio file as a voice note. */
export interface BulkFileDraft extends BulkPacing {
  arrayNumbers: string[];
  file: File;
  description: string;
  voice: boolean;
}

export const bulkKeys = {
  all: ['bulk'] as const,
  list: ['bulk', 'list'] as const,
  detail: (id: number) => ['bulk', 'detail', id] as const,
};

/** The multipart body of POST /bulkClose/ (field names of the contract). */
export function bulkFileForm(draft: BulkFileDraft): FormData {
  const form = new FormData();
  form.append('whatsappId', String(draft.whatsappId));
  form.append('arrayNumbers', JSON.stringify(draft.arrayNumbers));
  form.append('min', String(draft.min));
  form.append('max', String(draft.max));
  form.append('medias', draft.file, draft.file.name);
  form.append('mediaLocalDescription', draft.description);
  form.append('voiceLocal', String(draft.voice));
  return form;
}

/** Whether a batch can go on the channel: a number channel (the server refuses the others: Telegram, Meta, waba). */
export const isBulkChannel = (channel: Pick<ChannelDto, 'type'>): boolean =>
  (BULK_CHANNEL_TYPES as readonly string[]).includes(channel.type);

/** The sending channel picker: GET /whatsapp/, the cache entry every channel picker reads. */
export const useBulkChannels = () =>
  useQuery({
    queryKey: queryKeys.channels,
    queryFn: async () => z.array(channelDtoSchema).parse(await api.get('/whatsapp/', { background: true })),
    staleTime: 60_000,
  });

const hasProcessing = (batches: readonly BulkBatchDto[] | undefined) =>
  (batches ?? []).some((batch) => batch.status === 'processing');

/** GET /bulk/: newest first. Read again every 10 s while one of them is still sending. */
export const useBulkBatches = () =>
  useQuery({
    queryKey: bulkKeys.list,
    queryFn: async () => bulkBatchListSchema.parse(await api.get('/bulk/', { background: true })),
    refetchInterval: (query) => (hasProcessing(query.state.data) ? 10_000 : false),
  });

/** A batch that changed replaces its row in the recent list (newest first: a new one goes on top). */
function storeBatch(queryClient: QueryClient, batch: BulkBatchDto): void {
  queryClient.setQueryData(bulkKeys.detail(batch.id), batch);
  queryClient.setQueryData<BulkBatchDto[]>(bulkKeys.list, (list) => {
    if (!list) return list;
    return list.some((item) => item.id === batch.id)
      ? list.map((item) => (item.id === batch.id ? batch : item))
      : [batch, ...list];
  });
}

/** GET /bulk/{id}, every 2 s while it is processing; it stops once the batch is finished or canceled. */
export function useBulkBatch(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: bulkKeys.detail(id),
    queryFn: async () => {
      const batch = bulkBatchDtoSchema.parse(await api.get(`/bulk/${id}`, { background: true }));
      storeBatch(queryClient, batch);
      return batch;
    },
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? BULK_POLL_MS : false),
    // The send's answer is the first reading: the first poll comes 2 s after it.
    staleTime: BULK_POLL_MS,
  });
}

function useBatchMutation<V>(send: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => bulkBatchDtoSchema.parse(await send(variables)),
    onSuccess: (batch) => storeBatch(queryClient, batch),
    meta: { handlesErrors: true },
  });
}

/** POST /bulk/; errors are shown by the form. */
export const useSendBulk = () => useBatchMutation((body: BulkSendBody) => api.post('/bulk/', body));

/** POST /bulkClose/ (multipart, the file as `medias`). */
export const useSendBulkFile = () =>
  useBatchMutation((draft: BulkFileDraft) => api.post('/bulkClose/', bulkFileForm(draft), { timeoutMs: 120_000 }));

/** POST /bulkVariable/. */
export const useSendBulkVariable = () => useBatchMutation((body: BulkVariableBody) => api.post('/bulkVariable/', body));

/** POST /bulk/{id}/cancel. */
export const useCancelBulk = () => useBatchMutation((id: number) => api.post(`/bulk/${id}/cancel`, {}));
