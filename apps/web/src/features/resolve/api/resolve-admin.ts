/**
 * The resolve screens' calls: closing messages (client-contract §15 `/farewellPrivateMessage`), reasons (§8
 * `/reasons`, and the `reasonRequired` setting), ratings (§15 `/ticketEvaluations`) and their configuration
 * (`/tenants/rating`, §10 `/tenantsRatingData/{id}`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  evaluationDtoSchema,
  farewellDtoSchema,
  farewellListResponseSchema,
  ratingResponseSchema,
  reasonDtoSchema,
  reasonListResponseSchema,
  settingDtoSchema,
  type EvaluationDto,
  type FarewellDto,
  type RatingDataInput,
  type RatingOption,
  type ReasonDto,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const farewellsKey = ['farewells'] as const;
export const reasonsKey = ['reasons'] as const;
export const evaluationsKey = ['evaluations'] as const;
export const ratingConfigKey = ['tenants', 'rating'] as const;

// Closing messages
export const useFarewells = () =>
  useQuery({
    queryKey: farewellsKey,
    queryFn: async () =>
      farewellListResponseSchema.parse(await api.get('/farewellPrivateMessage/', { background: true }))
        .farewellPrivateMessage,
  });

export function useSaveFarewell() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, message }: { id?: number; message: string }): Promise<FarewellDto> =>
      farewellDtoSchema.parse(
        id === undefined
          ? await api.post('/farewellPrivateMessage/', { message })
          : await api.put(`/farewellPrivateMessage/${id}`, { message }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: farewellsKey }),
    meta: { handlesErrors: true },
  });
}

export function useDeleteFarewell() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number | 'all') =>
      api.delete<unknown>(id === 'all' ? '/farewellPrivateMessageAll/' : `/farewellPrivateMessage/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: farewellsKey }),
  });
}

// Reasons
export const useReasons = () =>
  useQuery({
    queryKey: reasonsKey,
    queryFn: async () => reasonListResponseSchema.parse(await api.get('/reasons/', { background: true })).reasons,
  });

export function useSaveReason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id?: number; name: string }): Promise<ReasonDto> =>
      reasonDtoSchema.parse(
        id === undefined ? await api.post('/reasons/', { name }) : await api.put(`/reasons/${id}`, { name }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reasonsKey }),
    meta: { handlesErrors: true },
  });
}

export function useDeleteReason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/reasons/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reasonsKey }),
  });
}

/** The `reasonRequired` setting, read from and written to the settings list. */
export function useReasonRequiredSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: queryKeys.settings,
    queryFn: async () => z.array(settingDtoSchema).parse(await api.get('/settings/', { background: true })),
  });
  const save = useMutation({
    mutationFn: (value: string) => api.put<void>('/settings/reasonRequired/', { key: 'reasonRequired', value }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.settings, exact: true }),
  });
  const value = settings.data?.find((s) => s.key === 'reasonRequired')?.value ?? 'disabled';
  return { loading: settings.isPending, enabled: value === 'enabled', save };
}

// Ratings
export interface EvaluationFilter {
  dateStart: string;
  dateEnd: string;
}

export const useEvaluations = (filter: EvaluationFilter) =>
  useQuery({
    queryKey: [...evaluationsKey, filter],
    queryFn: async () =>
      z.array(evaluationDtoSchema).parse(
        await api.get('/ticketEvaluations/', {
          query: {
            ...(filter.dateStart ? { dateStart: filter.dateStart } : {}),
            ...(filter.dateEnd ? { dateEnd: filter.dateEnd } : {}),
          },
          background: true,
        }),
      ),
  });

export type { EvaluationDto };

export const useRatingConfig = () =>
  useQuery({
    queryKey: ratingConfigKey,
    queryFn: async () => ratingResponseSchema.parse(await api.get('/tenants/rating/', { background: true }))[0]!,
  });

/** Saves the labels (`PUT /tenants/rating/`, a bare array) and the texts and attempts (`PUT /tenantsRatingData/{id}`). */
export function useSaveRatingConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, labels, data }: { id: number; labels: RatingOption[]; data: RatingDataInput }) => {
      await api.put('/tenants/rating/', labels);
      await api.put(`/tenantsRatingData/${id}`, data);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ratingConfigKey }),
    meta: { handlesErrors: true },
  });
}
