import { QueryClient } from '@tanstack/react-query';
import { QUERY_DEFAULTS } from '../../lib/client-constants.js';

/**
 * The defaults of docs/client-behaviour.md. One per tab in the browser; one per request on the server, where nothing
 * is garbage-collected on a timer (`gcTime: Infinity`, as TanStack recommends for SSR) — a 5-minute
 * timer per rendered page would keep every request's cache alive for 5 minutes — and the render
 * clears the client when it is done.
 */
export function createQueryClient({ server = false }: { server?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_DEFAULTS.staleTime,
        gcTime: server ? Infinity : QUERY_DEFAULTS.gcTime,
        // On the server a loader's read is an in-process call: a failure is answered at once (the
        // page fetches again in the browser) rather than after the browser's 1 s and 2 s back-off.
        retry: server
          ? false
          : (failureCount, error) =>
              failureCount < 2 && !(error instanceof Error && 'status' in error && Number((error as { status: number }).status) < 500),
      },
      mutations: { gcTime: QUERY_DEFAULTS.mutationGcTime },
    },
  });
}
