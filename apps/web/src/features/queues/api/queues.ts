/** The queues screen's calls (client-contract §8 `/queue`): a bare array; a queue's name is `queue` on the wire. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queueDtoSchema, type QueueDto, type QueueInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /queue/ (the same query the ticket filters read). */
export const useQueueList = () =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async () => z.array(queueDtoSchema).parse(await api.get('/queue/', { background: true })),
  });

function useInvalidateQueues() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.queues, exact: true });
}

/** POST /queue/ or PUT /queue/{id}. */
export function useSaveQueue() {
  const invalidate = useInvalidateQueues();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: QueueInput }): Promise<QueueDto> =>
      queueDtoSchema.parse(id === undefined ? await api.post('/queue/', input) : await api.put(`/queue/${id}`, input)),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /queue/{id}: ERR_QUEUE_TICKET_EXISTS while tickets use it (toast by the query client). */
export function useDeleteQueue() {
  const invalidate = useInvalidateQueues();
  return useMutation({ mutationFn: (id: number) => api.delete<void>(`/queue/${id}`), onSuccess: invalidate });
}
