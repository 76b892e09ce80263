/**
 * The tenant's default WhatsApp gateway hosts (client-contract §10: `wuzapiHost`, `evoHost`, the write-only
 * `evoToken`), read from the own-tenant call GET /tenants/undefined. Shared by the channel form (it prefills a new
 * Evolution or Wuzapi channel's API URL) and the settings tabs that edit them; features never import each other.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { isGatewayUrl } from '@conversa/shared';
import { api } from './api';
import { queryKeys } from './query-keys';

/** An http(s) URL with a host and no credentials: the gateways' API URLs (product-spec §5 "must be valid"). */
export const isHttpUrl = (value: string): boolean => isGatewayUrl(value.trim());

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

const tenantGatewaysSchema = z
  .object({
    id: z.number(),
    wuzapiHost: text,
    evoHost: text,
    /** Whichever way the server says the write-only key is stored; its value is never read. */
    evoTokenConfigured: z.boolean().optional(),
    configuredSecrets: z.array(z.string()).optional(),
  })
  .transform(({ id, wuzapiHost, evoHost, evoTokenConfigured, configuredSecrets }) => ({
    tenantId: id,
    wuzapiHost,
    evoHost,
    /** Null: the server does not say whether an Evolution API key is stored. */
    evoTokenSet: evoTokenConfigured ?? configuredSecrets?.includes('evoToken') ?? null,
  }));
export type TenantGateways = z.output<typeof tenantGatewaysSchema>;

/** Under the current tenant's key, so what refreshes the tenant refreshes these too. */
export const tenantGatewaysKey = [...queryKeys.currentTenant, 'gateways'] as const;

export async function fetchTenantGateways(signal?: AbortSignal): Promise<TenantGateways | null> {
  const body = await api.get<unknown>('/tenants/undefined', { signal, background: true });
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first ? tenantGatewaysSchema.parse(first) : null;
}

export const useTenantGateways = (enabled = true) =>
  useQuery({ queryKey: tenantGatewaysKey, queryFn: ({ signal }) => fetchTenantGateways(signal), enabled });
