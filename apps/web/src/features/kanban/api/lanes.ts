/** The lanes screen's calls (client-contract §8 `/kanban`): `{ kanban: [...] }` by position. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { laneDtoSchema, laneListResponseSchema, type LaneDto, type LaneInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /kanban/ (the same query the ticket filter reads); `{T}:kanban` refreshes it. */
export const useLanes = () =>
  useQuery({
    queryKey: queryKeys.kanbans,
    queryFn: async (): Promise<LaneDto[]> =>
      laneListResponseSchema.parse(await api.get('/kanban/', { background: true })).kanban,
  });

function useInvalidateLanes() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.kanbans, exact: true });
}

/** POST /kanban/ or PUT /kanban/{id}. */
export function useSaveLane() {
  const invalidate = useInvalidateLanes();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: LaneInput }): Promise<LaneDto> =>
      laneDtoSchema.parse(id === undefined ? await api.post('/kanban/', input) : await api.put(`/kanban/${id}`, input)),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /kanban/{id}: its contacts end in no lane. */
export function useDeleteLane() {
  const invalidate = useInvalidateLanes();
  return useMutation({ mutationFn: (id: number) => api.delete<void>(`/kanban/${id}`), onSuccess: invalidate });
}

/** PUT /kanban/order { ids }: the new order shows at once and comes back on error. */
export function useOrderLanes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (lanes: LaneDto[]) =>
      laneListResponseSchema.parse(await api.put('/kanban/order', { ids: lanes.map((lane) => lane.id) })).kanban,
    onMutate: async (lanes) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.kanbans, exact: true });
      const before = queryClient.getQueryData<LaneDto[]>(queryKeys.kanbans);
      queryClient.setQueryData<LaneDto[]>(
        queryKeys.kanbans,
        lanes.map((lane, position) => ({ ...lane, position })),
      );
      return { before };
    },
    onError: (_error, _lanes, context) => queryClient.setQueryData(queryKeys.kanbans, context?.before),
    onSuccess: (kanban) => queryClient.setQueryData(queryKeys.kanbans, kanban),
  });
}
