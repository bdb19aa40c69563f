import { QueryClient } from '@tanstack/react-query';
import { QUERY_DEFAULTS } from '../../lib/client-constants.js';

/** PRODUCT.md §3 defaults. One per request on the server, one per tab in the browser. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_DEFAULTS.staleTime,
        gcTime: QUERY_DEFAULTS.gcTime,
        retry: (failureCount, error) => failureCount < 2 && !(error instanceof Error && 'status' in error && Number((error as { status: number }).status) < 500),
      },
      mutations: { gcTime: QUERY_DEFAULTS.mutationGcTime },
    },
  });
}
