import type { SortOrder, UserSortField } from '../../../../lib/api/admin-users.js';
import { defaultSortOrder } from '../../../../lib/api/admin-users.js';
import type { UpdateListParams } from '../hooks/useUserListParams.js';
import { type ListParams, SORT_LABELS } from '../list-params.js';
import '../admin-users.css';

const direction = (order: SortOrder) => (order === 'asc' ? 'ascending' : 'descending');

/** A column header that sorts by its column; a second click reverses the order. */
export function SortHeader({ field, params, update }: { field: UserSortField; params: ListParams; update: UpdateListParams }) {
  const active = params.sort === field;
  const next: SortOrder = active ? (params.order === 'asc' ? 'desc' : 'asc') : defaultSortOrder(field);
  return (
    <th scope="col" aria-sort={active ? direction(params.order) : 'none'}>
      <button
        type="button"
        className="admin-users__sort"
        aria-label={`${SORT_LABELS[field]}, sort ${direction(next)}`}
        onClick={() => update({ sort: field, order: next })}
      >
        {SORT_LABELS[field]}
        <span aria-hidden="true" className="admin-users__sort-icon">
          {active ? (params.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
