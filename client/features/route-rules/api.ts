import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RouteRule, RouteRulesResponse, UpdateRouteRulesRequest } from '../../../lib/api/route-rules.js';
import { api } from '../../app/api-client.js';

const RULES_PATH = '/api/admin/route-rules';

export const routeRulesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'route-rules'] as const,
    queryFn: ({ signal }) => api<RouteRulesResponse>(RULES_PATH, { signal }),
  });

/**
 * Replaces the whole list; the answer is the list as saved. The rules sent carry exactly the API's
 * fields (the editor's rows have more), and validation errors name them `rules.<index>.<field>`.
 */
export function useSaveRouteRules<Rule extends RouteRule>() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: readonly Rule[]) => {
      const body: UpdateRouteRulesRequest = { rules: rules.map(({ source, target, status }) => ({ source, target, status })) };
      return api<RouteRulesResponse>(RULES_PATH, { method: 'PUT', body });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(routeRulesQuery().queryKey, saved);
      // Navigations ask `/api/route-rules` per path and keep the answers a while: ask again.
      queryClient.removeQueries({ queryKey: ['route-rule'] });
    },
  });
}
