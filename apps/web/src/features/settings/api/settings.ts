import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { settingDtoSchema, type SettingDto } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /settings/: a bare array of { key, value }. */
export const useSettings = () =>
  useQuery({
    queryKey: queryKeys.settings,
    queryFn: async () => z.array(settingDtoSchema).parse(await api.get('/settings/', { background: true })),
  });

/**
 * PUT /settings/{key}/ { key, value }. Optimistic: the switch moves at once and goes back if the server refuses
 * (e.g. ERR_SETTINGS_VISIBILITY_COMBINATION).
 */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setting: SettingDto) => api.put<void>(`/settings/${encodeURIComponent(setting.key)}/`, setting),
    onMutate: async (setting) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.settings, exact: true });
      const previous = queryClient.getQueryData<SettingDto[]>(queryKeys.settings);
      queryClient.setQueryData<SettingDto[]>(queryKeys.settings, (list = []) =>
        list.some((item) => item.key === setting.key)
          ? list.map((item) => (item.key === setting.key ? setting : item))
          : [...list, setting],
      );
      return { previous };
    },
    onError: (_error, _setting, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.settings, context.previous);
    },
    meta: { handlesErrors: true },
  });
}
