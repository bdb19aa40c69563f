import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Ga4mpHistoryPage,
  Ga4mpSendRequest,
  Ga4mpSendResponse,
  Ga4mpValidateRequest,
  Ga4mpValidateResponse,
} from '../../../lib/api/ga4mp.js';
import { api } from '../../app/api-client.js';

/** The workbench's queries and mutations (`/api/tools/ga4mp/*`), typed with lib/api/ga4mp.ts. */

const HISTORY_KEY = ['ga4mp', 'history'] as const;
export const HISTORY_PAGE_SIZE = 10;

/** One page (1-based) of the user's sent payloads, newest first; the previous page stays shown while the next loads. */
export const ga4mpHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: [...HISTORY_KEY, page] as const,
    queryFn: ({ signal }) => api<Ga4mpHistoryPage>(`/api/tools/ga4mp/history?page=${page}&pageSize=${HISTORY_PAGE_SIZE}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** "Validate on server": the same rules as the live check, run by the API. */
export function useValidateOnServer() {
  return useMutation({
    mutationFn: (request: Ga4mpValidateRequest) =>
      api<Ga4mpValidateResponse>('/api/tools/ga4mp/validate', { method: 'POST', body: request }),
  });
}

/** Sends through the server to GA4; every attempt that reaches GA4 (or fails to) lands in the history. */
export function useSendPayload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: Ga4mpSendRequest) => api<Ga4mpSendResponse>('/api/tools/ga4mp/send', { method: 'POST', body: request }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}

export function useDeleteHistoryEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/tools/ga4mp/history/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}

export function useClearHistory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('/api/tools/ga4mp/history', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}
