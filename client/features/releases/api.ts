import { queryOptions } from '@tanstack/react-query';
import type { LatestReleasesResponse } from '../../../lib/api/releases.js';
import type { ProductSlug } from '../../../lib/product.js';
import { api } from '../../app/api-client.js';

/** Slow-changing data (PRODUCT.md §3): five minutes fresh, no refetch on focus, refetch on mount. */
const SLOW = { staleTime: 300_000, refetchOnWindowFocus: false, refetchOnMount: true } as const;

export const latestReleasesQuery = (product: ProductSlug) =>
  queryOptions({
    queryKey: ['releases', 'latest', product] as const,
    queryFn: () => api<LatestReleasesResponse>(`/api/releases/latest?product=${encodeURIComponent(product)}`),
    ...SLOW,
  });
