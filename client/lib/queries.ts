import { queryOptions } from '@tanstack/react-query';
import type { DataSource } from '../../lib/ssr/render-contract.js';

export const meQuery = (data: DataSource) =>
  queryOptions({ queryKey: ['auth', 'me'] as const, queryFn: () => data.me() });

export const routeRuleQuery = (data: DataSource, pathname: string, search: string) =>
  queryOptions({
    queryKey: ['route-rule', pathname, search] as const,
    queryFn: () => data.routeRule(pathname, search),
    staleTime: 30_000,
  });
