/**
 * The QueryClient: mutation errors become a toast with the catalogue text unless the client already showed one or
 * the mutation handles its errors itself (`meta: { handlesErrors: true }`).
 */
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError, describeError } from './api-error';
import { notifyError } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { handlesErrors?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        if (mutation.meta?.handlesErrors) return;
        if (error instanceof ApiError && error.notified) return;
        notifyError(describeError(error));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status > 0 && error.status < 500) return false;
          return failureCount < 1;
        },
      },
      mutations: { retry: false },
    },
  });
}
