/**
 * The tenant's default gateway hosts (client-contract §10): PUT /tenantsWuzapiHost/{tenantId} `{ wuzapiHost }` and
 * PUT /tenantsEvolutionHost/{tenantId} `{ evoHost, evoToken }`; the read is lib/tenant-gateways.ts (the channel form
 * reads it too). The Evolution key is write-only: left empty, it is not sent and the stored one stays.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { tenantGatewaysKey } from '../../../lib/tenant-gateways';

export interface WuzapiHostInput {
  tenantId: number;
  wuzapiHost: string;
}

export interface EvolutionHostInput {
  tenantId: number;
  evoHost: string;
  /** Empty keeps the stored key. */
  evoToken: string;
}

/** An emptied host clears the tenant's default (null). */
const hostOrNull = (value: string) => value.trim() || null;

export function useSaveWuzapiHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tenantId, wuzapiHost }: WuzapiHostInput) =>
      api.put<unknown>(`/tenantsWuzapiHost/${tenantId}`, { wuzapiHost: hostOrNull(wuzapiHost) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tenantGatewaysKey, exact: true }),
    meta: { handlesErrors: true },
  });
}

export function useSaveEvolutionHost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tenantId, evoHost, evoToken }: EvolutionHostInput) => {
      const token = evoToken.trim();
      return api.put<unknown>(`/tenantsEvolutionHost/${tenantId}`, {
        evoHost: hostOrNull(evoHost),
        ...(token ? { evoToken: token } : {}),
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tenantGatewaysKey, exact: true }),
    meta: { handlesErrors: true },
  });
}
