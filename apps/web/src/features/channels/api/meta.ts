/**
 * The Meta calls of the connection form (decisions of issue 15, client-contract §7.2): the WhatsApp Cloud API
 * number check and the Facebook-login page connection of Messenger and Instagram channels.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { channelDtoSchema } from '@conversa/shared';
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

const verifyAnswerSchema = z.object({
  ok: z.literal(true),
  number: z.string(),
  verifiedName: z.string().nullable().optional(),
});
export type VerifyWabaAnswer = z.infer<typeof verifyAnswerSchema>;

/** POST /wabametaVerifyPhone -> `{ ok, number, verifiedName }`; 400 ERR_WABA_DATA_INVALID when Graph refuses. */
export const useVerifyWabaPhone = () =>
  useMutation({
    mutationFn: async (input: VerifyWabaInput) =>
      verifyAnswerSchema.parse(await api.post('/wabametaVerifyPhone', input)),
    meta: { handlesErrors: true },
  });

const pageDetailsSchema = z.object({
  id: z.string(),
  name: z.string(),
  instagramId: z.string().nullable().optional(),
});
const registerAnswerSchema = z.object({
  page_details: z.array(pageDetailsSchema),
  channel: z.unknown().optional(),
});
export type PageDetails = z.infer<typeof pageDetailsSchema>;

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
      registerAnswerSchema.parse(await api.post('/fb/register-pages', { whatsapp: channelId, accountId, userToken })),
    onSuccess: (answer) => {
      const channel = channelDtoSchema.safeParse(answer.channel);
      if (channel.success) upsertCachedChannel(queryClient, channel.data);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.channels, exact: true });
    },
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

const metaWebhookSchema = z.object({ url: z.string().min(1), verifyToken: z.string().min(1) });
export type MetaWebhook = z.infer<typeof metaWebhookSchema>;

/**
 * The callback URL and verify token of a saved Meta channel (`metaWebhook` on its DTO). Read loosely: the shared
 * DTO schema may not list the field yet, and other types carry none.
 */
export function metaWebhookOf(channel: unknown): MetaWebhook | null {
  const value = (channel as { metaWebhook?: unknown } | null | undefined)?.metaWebhook;
  const parsed = metaWebhookSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
