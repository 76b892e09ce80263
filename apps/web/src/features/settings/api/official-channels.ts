/**
 * The tenant's official-channel settings (decisions of issue 15): the write-only Meta business token and default
 * WhatsApp token (PUT /tenantsMetaUpdate/{id}), the NotificaMe hub token (PUT /tenantsHubToken/{id}), the business
 * accounts the Meta token reaches (POST /wabametaVerifyBms) and the hub account's channels (/hub-channel/).
 * Tokens never come back: GET /tenants/{id} says only whether each is configured.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  channelDtoSchema,
  hubChannelListResponseSchema,
  wabaVerifyBmsResponseSchema,
  type HubChannelDto,
  type WabaBusinessAccount,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { upsertCachedChannel } from '../../../lib/channels-cache';
import { queryKeys } from '../../../lib/query-keys';

const tokenFlagsSchema = z.object({
  metaTokenConfigured: z.boolean().optional(),
  wabaTokenConfigured: z.boolean().optional(),
  hubTokenConfigured: z.boolean().optional(),
});

const tenantTokensSchema = z.object({ id: z.number() }).and(tokenFlagsSchema);

export interface TenantTokens {
  tenantId: number;
  metaToken: boolean;
  wabaToken: boolean;
  hubToken: boolean;
}

/** Under the current tenant's key, so what refreshes the tenant refreshes these too. */
export const tenantTokensKey = [...queryKeys.currentTenant, 'officialTokens'] as const;

/** GET /tenants/undefined (the own tenant, a one-element array): its id and which tokens are stored. */
export function useTenantTokens() {
  return useQuery({
    queryKey: tenantTokensKey,
    queryFn: async ({ signal }): Promise<TenantTokens | null> => {
      const body = await api.get<unknown>('/tenants/undefined', { signal, background: true });
      const first: unknown = Array.isArray(body) ? body[0] : body;
      if (!first) return null;
      const tenant = tenantTokensSchema.parse(first);
      return {
        tenantId: tenant.id,
        metaToken: tenant.metaTokenConfigured ?? false,
        wabaToken: tenant.wabaTokenConfigured ?? false,
        hubToken: tenant.hubTokenConfigured ?? false,
      };
    },
  });
}

/** A token change: absent keeps the stored value, a string replaces it, null removes it. */
export type TokenChange = string | null | undefined;

function useSaveTokens<Input extends { tenantId: number }>(path: string, body: (input: Input) => object) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) =>
      tokenFlagsSchema.parse(
        (await api.put<unknown>(`${path}/${input.tenantId}`, { id: input.tenantId, ...body(input) })) ?? {},
      ),
    onSuccess: (flags) => {
      // The answer carries the new flags; a server that sends none is read again.
      queryClient.setQueryData<TenantTokens | null>(tenantTokensKey, (old) =>
        old
          ? {
              ...old,
              metaToken: flags.metaTokenConfigured ?? old.metaToken,
              wabaToken: flags.wabaTokenConfigured ?? old.wabaToken,
              hubToken: flags.hubTokenConfigured ?? old.hubToken,
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: tenantTokensKey, exact: true });
    },
    meta: { handlesErrors: true },
  });
}

const change = <K extends string>(key: K, value: TokenChange) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, string | null>);

export interface MetaTokensInput {
  tenantId: number;
  metaToken?: TokenChange;
  wabaToken?: TokenChange;
}

export const useSaveMetaTokens = () =>
  useSaveTokens<MetaTokensInput>('/tenantsMetaUpdate', ({ metaToken, wabaToken }) => ({
    ...change('metaToken', metaToken),
    ...change('wabaToken', wabaToken),
  }));

export interface HubTokenInput {
  tenantId: number;
  hubToken?: TokenChange;
}

export const useSaveHubToken = () =>
  useSaveTokens<HubTokenInput>('/tenantsHubToken', ({ hubToken }) => change('hubToken', hubToken));

export type BusinessAccount = WabaBusinessAccount;

/** POST /wabametaVerifyBms: the business accounts and phone numbers the tenant's Meta token reaches. */
export const useVerifyBusinessAccounts = () =>
  useMutation({
    mutationFn: async () => wabaVerifyBmsResponseSchema.parse(await api.post('/wabametaVerifyBms', {})).data,
    meta: { handlesErrors: true },
  });

export type HubChannel = HubChannelDto;

export const hubChannelsKey = ['hub-channels'] as const;

/** GET /hub-channel/: the channels of the tenant's hub account (400 ERR_HUB_TOKEN_MISSING without a token). */
export const useHubChannels = (enabled: boolean) =>
  useQuery({
    queryKey: hubChannelsKey,
    queryFn: async ({ signal }) => hubChannelListResponseSchema.parse(await api.get('/hub-channel/', { signal })).data,
    enabled,
  });

/** POST /hub-channel/ `{ id, name, channel }`: the hub channel becomes one of our channels (it shows in /conexoes). */
export function useAddHubChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name, channel }: HubChannel) =>
      z.object({ data: z.unknown() }).parse(await api.post('/hub-channel/', { id, name, channel })),
    onSuccess: ({ data }) => {
      const channel = channelDtoSchema.safeParse(data);
      if (channel.success) upsertCachedChannel(queryClient, channel.data);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.channels, exact: true });
      void queryClient.invalidateQueries({ queryKey: hubChannelsKey, exact: true });
    },
    meta: { handlesErrors: true },
  });
}

/** POST /hub-channel-setagain/ `{ whatsappId }`: registers our webhook at the hub again. */
export const useSetHubWebhookAgain = () =>
  useMutation({
    mutationFn: (whatsappId: number) => api.post<unknown>('/hub-channel-setagain/', { whatsappId }),
    meta: { handlesErrors: true },
  });
