import { useQuery } from '@tanstack/react-query';
import { adminOverviewQuery } from '../../../app/queries.js';
import { useDataSource } from '../../../app/data-source.js';

/** The key figures of /admin: prefetched by the route on the server, so a first load shows them at once. */
export function useAdminOverview() {
  return useQuery(adminOverviewQuery(useDataSource()));
}

export type AdminOverviewQuery = ReturnType<typeof useAdminOverview>;
