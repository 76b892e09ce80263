/** The companies (tenants) a superadmin's screens pick from: GET /tenants/, the cache entry the tenants screen keeps. */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantDtoSchema, type TenantDto } from '@conversa/shared';
import { api } from './api';
import { queryKeys } from './query-keys';

export const useCompanies = () =>
  useQuery({
    queryKey: queryKeys.tenants,
    queryFn: async () => z.array(tenantDtoSchema).parse(await api.get('/tenants/', { background: true })),
    staleTime: 30_000,
  });

/** "3 · Padaria Central": the id tells apart two companies of the same name. */
export const companyLabel = (company: Pick<TenantDto, 'id' | 'name'>): string => `${company.id} · ${company.name}`;

export const companyOptions = (companies: readonly TenantDto[] | undefined) =>
  (companies ?? []).map((c) => ({ value: String(c.id), label: companyLabel(c) }));
