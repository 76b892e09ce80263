/**
 * The Meta calls of the connection form (decisions of issue 15, client-contract §7.2): the WhatsApp Cloud API
 * number check and the Facebook-login page connection of Messenger and Instagram channels.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  registerPagesResponseSchema,
  wabaVerifyPhoneResponseSchema,
  type PageDetail,
  type WabaVerifyPhoneResponse,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { upsertCachedChannel } from '../../../lib/channels-cache';
import { queryKeys } from '../../../lib/query-keys';

export interface VerifyWabaInput {
  /** Empty secrets are left out: with `whatsappId` the server uses the stored ones. */
  tokenAPI?: string;
  wabaId: string;
  bmToken?: string;
  wabaVersion?: string;
  whatsappId?: number;
}

export type VerifyWabaAnswer = WabaVerifyPhoneResponse;

/** POST /wabametaVerifyPhone -> `{ ok, number, verifiedName }`; 400 ERR_WABA_DATA_INVALID when Graph refuses. */
export const useVerifyWabaPhone = () =>
  useMutation({
    mutationFn: async (input: VerifyWabaInput) =>
      wabaVerifyPhoneResponseSchema.parse(await api.post('/wabametaVerifyPhone', input)),
    meta: { handlesErrors: true },
  });

export type PageDetails = PageDetail;

export interface RegisterPagesInput {
  channelId: number;
  accountId: string;
  userToken: string;
}

/**
 * POST /fb/register-pages `{ whatsapp, accountId, userToken }`: the server reads the user's pages, stores the one of
 * this channel with its page token and subscribes the app. The channel in the answer goes into the list at once.
 */
export function useRegisterPages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ channelId, accountId, userToken }: RegisterPagesInput) =>
      registerPagesResponseSchema.parse(
        await api.post('/fb/register-pages', { whatsapp: channelId, accountId, userToken }),
      ),
    onSuccess: (answer) => upsertCachedChannel(queryClient, answer.channel),
    meta: { handlesErrors: true },
  });
}

/** POST /fb/logout-pages `{ whatsapp }`: unsubscribes the page and forgets its token; the channel disconnects. */
export function useLogoutPages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelId: number) => api.post<unknown>('/fb/logout-pages', { whatsapp: channelId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.channels, exact: true }),
    meta: { handlesErrors: true },
  });
}
