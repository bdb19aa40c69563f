import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AnalyticsDashboard, AnalyticsRealtime, AnalyticsSettings } from '../../../lib/api/analytics.js';
import { api } from '../../app/api-client.js';

/** `preset=7d` or `from=…&to=…`, as in the page's URL. */
export type RangeQuery = { preset: string } | { from: string; to: string };

export const rangeSearch = (range: RangeQuery) => new URLSearchParams(range as Record<string, string>).toString();

export const analyticsQuery = (range: RangeQuery) =>
  queryOptions({
    queryKey: ['admin', 'analytics', rangeSearch(range)] as const,
    queryFn: ({ signal }) => api<AnalyticsDashboard>(`/api/admin/analytics?${rangeSearch(range)}`, { signal }),
    placeholderData: keepPreviousData,
  });

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
