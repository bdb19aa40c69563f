import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminUserList } from '../../../../lib/api/admin-users.js';
import { formatDate } from '../format.js';
import type { UpdateListParams } from '../hooks/useUserListParams.js';
import { type ListParams, SORT_LABELS } from '../list-params.js';
import { RetryAlert } from './RetryAlert.js';
import { SortHeader } from './SortHeader.js';
import { RoleBadge, StatusBadge } from './UserBadges.js';
import '../admin-users.css';

export const SUMMARY_ID = 'admin-users-summary';
const SKELETON_ROWS = 5;
const COLUMNS = 6;

interface Props {
  params: ListParams;
  update: UpdateListParams;
  list: UseQueryResult<AdminUserList>;
  filtered: boolean;
  onClearFilters: () => void;
  /** Opens the details panel; `opener` gets the focus back when it closes. */
  onOpen: (id: string, opener: HTMLElement) => void;
}

/** The users of the current page (cards on phones), or why there are none. */
export function UsersTable({ params, update, list, filtered, onClearFilters, onOpen }: Props) {
  const { data, isPending, isError, isFetching, isPlaceholderData, refetch } = list;

  if (isError && !data) {
    return (
      <RetryAlert
        message={`Could not load the users. ${list.error instanceof Error ? list.error.message : ''}`.trim()}
        onRetry={() => void refetch()}
      />
    );
  }

  const stale = isFetching && isPlaceholderData;
  const empty = data?.items.length === 0;

  return (
    <>
      {empty ? (
        <EmptyList
          filtered={filtered}
          pastTheEnd={params.page > 1}
          onClearFilters={onClearFilters}
          onFirstPage={() => update({ page: 1 })}
        />
      ) : (
        <div className="admin-users__table-wrap">
          <table
            className="table table--stack admin-users__table"
            aria-busy={isPending || stale || undefined}
            aria-describedby={SUMMARY_ID}
          >
            <caption className="visually-hidden">
              Users, sorted by {SORT_LABELS[params.sort]} {params.order === 'asc' ? 'ascending' : 'descending'}
            </caption>
            <thead>
              <tr>
                <SortHeader field="name" params={params} update={update} />
                <SortHeader field="email" params={params} update={update} />
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <SortHeader field="createdAt" params={params} update={update} />
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className={stale ? 'admin-users__stale' : undefined}>
              {isPending
                ? Array.from({ length: SKELETON_ROWS }, (_, row) => (
                    <tr key={row} aria-hidden="true" className="admin-users__skeleton-row">
                      {Array.from({ length: COLUMNS }, (_, cell) => (
                        <td key={cell}>
                          <div className="skeleton admin-users__skeleton-cell" />
                        </td>
                      ))}
                    </tr>
                  ))
                : data.items.map((user) => (
                    <tr key={user.id}>
                      <td data-label="Name" className="admin-users__name">
                        {user.name}
                      </td>
                      <td data-label="E-mail" className="admin-users__email">
                        {user.email}
                      </td>
                      <td data-label="Role">
                        <RoleBadge role={user.role} />
                      </td>
                      <td data-label="Status">
                        <StatusBadge status={user.status} />
                      </td>
                      <td data-label="Joined">
                        <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
                      </td>
                      <td className="admin-users__actions">
                        <button
                          type="button"
                          className="button button--small"
                          aria-haspopup="dialog"
                          aria-label={`Manage ${user.name}`}
                          onClick={(event) => onOpen(user.id, event.currentTarget)}
                        >
                          Manage
                        </button>
                      </td>
                    </tr>
                  ))}
            </tbody>
          </table>
        </div>
      )}
      {isError && data ? <RetryAlert message="Could not refresh the list." onRetry={() => void refetch()} /> : null}
    </>
  );
}

function EmptyList({
  filtered,
  pastTheEnd,
  onClearFilters,
  onFirstPage,
}: {
  filtered: boolean;
  pastTheEnd: boolean;
  onClearFilters: () => void;
  onFirstPage: () => void;
}) {
  if (filtered) {
    return (
      <div className="empty-state admin-users__empty">
        <h3>No users match</h3>
        <p>Try another search, or clear the filters to see everyone.</p>
        <button type="button" className="button" onClick={onClearFilters}>
          Clear filters
        </button>
      </div>
    );
  }
  if (pastTheEnd) {
    return (
      <div className="empty-state admin-users__empty">
        <h3>Nothing on this page</h3>
        <p>This page is past the end of the list.</p>
        <button type="button" className="button" onClick={onFirstPage}>
          Back to page 1
        </button>
      </div>
    );
  }
  return (
    <div className="empty-state admin-users__empty">
      <h3>No users yet</h3>
      <p>Accounts appear here as soon as people register.</p>
    </div>
  );
}
