/**
 * What the builder reads besides the flow: the queues (GET /queue/) and users (GET /users/) its destination selects
 * list, sharing the cache entries of the other pickers, and the media upload of a step (POST /chat-flow-media).
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { userListResponseSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** client-contract §8: a queue's name is `queue` on the wire. Loose: the queues screen shares this cache entry. */
const queueOptionSchema = z.looseObject({ id: z.number(), queue: z.string() });

export interface Option {
  value: string;
  label: string;
}

/** GET /queue/ -> `[{ id, queue }]`, as select options. */
export function useQueueOptions() {
  const query = useQuery({
    queryKey: queryKeys.queues,
    queryFn: async ({ signal }) =>
      z.array(queueOptionSchema).parse(await api.get('/queue/', { signal, background: true })),
    staleTime: 60_000,
  });
  return useMemo(() => (query.data ?? []).map((q): Option => ({ value: String(q.id), label: q.queue })), [query.data]);
}

/** GET /users/?rowsPerPage=200 -> `users`, as select options (the same cache entry as the other user pickers). */
export function useUserOptions() {
  const query = useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    staleTime: 60_000,
  });
  return useMemo(() => (query.data ?? []).map((u): Option => ({ value: String(u.id), label: u.name })), [query.data]);
}

export const uploadedMediaSchema = z.object({
  mediaUrl: z.string().min(1),
  name: z.string().optional(),
  type: z.enum(['image', 'video', 'audio', 'document']),
});
export type UploadedMedia = z.infer<typeof uploadedMediaSchema>;

/** POST /chat-flow-media (multipart, field `file`) -> `{ mediaUrl, name, type }`. */
export async function uploadChatFlowMedia(file: File): Promise<UploadedMedia> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadedMediaSchema.parse(await api.post('/chat-flow-media', form));
}

/** The media kind a file is sent as, from its MIME type. */
export function mediaTypeOf(mime: string): UploadedMedia['type'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}
