import { queryOptions } from '@tanstack/react-query';
import { type RangeQuery, rangeSearch } from '../../../lib/analytics/range.js';
import type { AnalyticsRealtime, AnalyticsSettings } from '../../../lib/api/analytics.js';
import { api } from '../../app/api-client.js';

export type { RangeQuery } from '../../../lib/analytics/range.js';
// The dashboard's own query is adminAnalyticsQuery (client/app/queries.ts): the route prefetches it.

export const realtimeQuery = () =>
  queryOptions({
    queryKey: ['admin', 'analytics', 'realtime'] as const,
    queryFn: ({ signal }) => api<AnalyticsRealtime>('/api/admin/analytics/realtime', { signal }),
    refetchInterval: 15_000,
  });

export const analyticsSettingsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'analytics', 'settings'] as const,
    queryFn: ({ signal }) => api<AnalyticsSettings>('/api/admin/analytics/settings', { signal }),
  });

export const saveAnalyticsSettings = (settings: AnalyticsSettings) =>
  api<AnalyticsSettings>('/api/admin/analytics/settings', { method: 'PUT', body: settings });

export const exportUrl = (range: RangeQuery) => `/api/admin/analytics/export.csv?${rangeSearch(range)}`;
