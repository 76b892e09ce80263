/**
 * The caller's own tenant. The reference client reads it as GET /tenants/undefined and gets a one-element array
 * (client-contract §2, §21.11); the shell checks its status, the dashboard shows it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantDtoSchema, type TenantDto } from '@conversa/shared';
import { api } from './api';
import { queryKeys } from './query-keys';

export async function fetchCurrentTenant(): Promise<TenantDto | null> {
  const body = await api.get<unknown>('/tenants/undefined', { background: true });
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first ? tenantDtoSchema.parse(first) : null;
}

export const currentTenantQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.currentTenant, queryFn: fetchCurrentTenant, staleTime: 15_000 });

export const useCurrentTenant = (enabled = true) => useQuery({ ...currentTenantQueryOptions(), enabled });

/** The browser's own zone: the fallback while the tenant is unknown. */
const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The zone the server reads the tenant's dates in (the panel's periods, business hours). An agent's browser may sit in
 * another zone; screens that default to "today" or say "open now" use this one so they agree with the server.
 */
export function useTenantTimeZone(): { timeZone: string; settled: boolean } {
  const tenant = useCurrentTenant();
  return { timeZone: tenant.data?.timezone ?? browserTimeZone(), settled: !tenant.isPending };
}

/** `yyyy-MM-dd` of `now` in `timeZone` (en-CA writes ISO dates). */
export function dateInTimeZone(timeZone: string, now: Date = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      now,
    );
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  }
}
