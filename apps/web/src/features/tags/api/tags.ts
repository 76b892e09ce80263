/** The tags screen's calls (client-contract §8 `/tags`): bare arrays; a tag's name is `tag` on the wire. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { tagDtoSchema, type TagDto, type TagInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** Every tag, active or not (the pickers read the active ones under `queryKeys.tags`). */
export const allTagsKey = [...queryKeys.tags, 'all'] as const;

/** GET /tags/?isActive=null (the string `null` = no filter). */
export const useAllTags = () =>
  useQuery({
    queryKey: allTagsKey,
    queryFn: async () =>
      z.array(tagDtoSchema).parse(await api.get('/tags/', { query: { isActive: 'null' }, background: true })),
  });

function useInvalidateTags() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.tags });
}

/** POST /tags/ or PUT /tags/{id}. */
export function useSaveTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: TagInput }): Promise<TagDto> =>
      tagDtoSchema.parse(id === undefined ? await api.post('/tags/', input) : await api.put(`/tags/${id}`, input)),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /tags/{id}: 409 ERR_TAG_CONTACTS_EXISTS while contacts carry it (toast by the query client). */
export function useDeleteTag() {
  const invalidate = useInvalidateTags();
  return useMutation({ mutationFn: (id: number) => api.delete<void>(`/tags/${id}`), onSuccess: invalidate });
}
