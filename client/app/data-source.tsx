import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import { meQuery } from './queries.js';

export const DataSourceContext = createContext<DataSource | null>(null);

export function useDataSource(): DataSource {
  const data = useContext(DataSourceContext);
  if (!data) throw new Error('useDataSource outside <AppProviders>');
  return data;
}

/** The signed-in user, or null. Prefetched by every route loader, so it is there on first render. */
export function useMe() {
  return useQuery(meQuery(useDataSource())).data ?? null;
}
