import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { isFiltered, type ListParams, readParams, toQuery, toSearch } from '../list-params.js';

export type UpdateListParams = (patch: Partial<ListParams>, options?: { replace?: boolean }) => void;

/**
 * The users list's search, filters, sort and paging, kept in the URL. Changing any of them other
 * than the page starts again at page 1.
 */
export function useUserListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);

  // The URL changes only once the navigation's loaders have run: a change made meanwhile (a filter
  // picked while the debounced search is on its way) builds on the navigation in flight, not on the
  // URL it is about to replace, or one of the two would be lost.
  const inFlight = useRef<ListParams | null>(null);
  useEffect(() => {
    inFlight.current = null;
  }, [searchParams]);

  const update: UpdateListParams = (patch, options = {}) => {
    const current = inFlight.current ?? params;
    const keys = Object.keys(patch) as (keyof ListParams)[];
    if (keys.every((key) => patch[key] === current[key])) return;
    const next = { ...current, ...patch };
    if (!('page' in patch)) next.page = 1;
    inFlight.current = next;
    setSearchParams(toSearch(toQuery(next)), { replace: options.replace ?? false, preventScrollReset: true });
  };

  return {
    params,
    query: toQuery(params),
    filtered: isFiltered(params),
    update,
    clearFilters: () => update({ q: '', role: '', status: '' }),
  };
}
