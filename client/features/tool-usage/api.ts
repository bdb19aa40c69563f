import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ToolUsageQuery, ToolUsageResponse } from '../../../lib/api/tool-usage.js';
import { api } from '../../app/api-client.js';

/** The admin's tool-usage counts (`GET /api/admin/tool-usage`), typed with lib/api/tool-usage.ts. */
export const toolUsageQuery = ({ from, to }: Required<ToolUsageQuery>) =>
  queryOptions({
    queryKey: ['admin', 'tool-usage', from, to] as const,
    queryFn: ({ signal }) => api<ToolUsageResponse>(`/api/admin/tool-usage?${new URLSearchParams({ from, to }).toString()}`, { signal }),
    // Switching the range keeps the last chart on screen until the new counts arrive.
    placeholderData: keepPreviousData,
  });
