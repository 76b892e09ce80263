/**
 * The tenant's quick messages (GET /fastreply/, client-contract §8), read by the quick messages screen and by the
 * chat's `/` picker: one query, one cache entry.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { quickMessageDtoSchema } from '@conversa/shared';
import { api } from './api';

export const quickMessagesKey = ['quick-messages'] as const;

export const useQuickMessages = (enabled = true) =>
  useQuery({
    queryKey: quickMessagesKey,
    queryFn: async () => z.array(quickMessageDtoSchema).parse(await api.get('/fastreply/', { background: true })),
    enabled,
    staleTime: 30_000,
  });
