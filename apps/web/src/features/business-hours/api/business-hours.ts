/**
 * Business hours and the absence message (client-contract §15): read as a one-element array, the week written as a
 * bare array of 7 days, the message on its own; both writes answer the object itself. Reads for every user; writes
 * for admins (others get 403).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { businessHoursResponseSchema, type BusinessHoursDay } from '@conversa/shared';
import { api } from '../../../lib/api';

export const businessHoursKey = ['tenants', 'business-hours'] as const;

const firstOf = (body: unknown) => {
  const [first] = businessHoursResponseSchema.parse(body);
  if (!first) throw new Error('empty business hours answer');
  return first;
};

/** GET /tenants/business-hours/ -> `[0].businessHours[]`, `[0].messageBusinessHours`. */
export const useBusinessHours = () =>
  useQuery({
    queryKey: businessHoursKey,
    queryFn: async ({ signal }) => firstOf(await api.get('/tenants/business-hours/', { signal, background: true })),
  });

/** The writes' answer: `{ businessHours, messageBusinessHours }`. */
const savedBusinessHoursSchema = businessHoursResponseSchema.element;

function useStoreAnswer() {
  const queryClient = useQueryClient();
  return (body: unknown) => queryClient.setQueryData(businessHoursKey, savedBusinessHoursSchema.parse(body));
}

/** PUT /tenants/business-hours/ with the bare array of the 7 days. */
export function useSaveBusinessHours() {
  const store = useStoreAnswer();
  return useMutation({
    mutationFn: (days: BusinessHoursDay[]) => api.put<unknown>('/tenants/business-hours/', days),
    onSuccess: store,
    meta: { handlesErrors: true },
  });
}

/** PUT /tenants/message-business-hours/ `{ messageBusinessHours }`. */
export function useSaveAbsenceMessage() {
  const store = useStoreAnswer();
  return useMutation({
    mutationFn: (messageBusinessHours: string) =>
      api.put<unknown>('/tenants/message-business-hours/', { messageBusinessHours }),
    onSuccess: store,
    meta: { handlesErrors: true },
  });
}
