import type { Ref } from 'react';
import { USER_SEARCH_MAX_LENGTH, type SortOrder, type UserSortField, type UserStatus } from '../../../../lib/api/admin-users.js';
import type { Role } from '../../../../lib/api/auth.js';
import { Field } from '../../../components/FormField.js';
import type { UpdateListParams } from '../hooks/useUserListParams.js';
import { useSearchText } from '../hooks/useSearchText.js';
import type { ListParams } from '../list-params.js';
import '../admin-users.css';

export const SEARCH_INPUT_ID = 'admin-users-q';

const SORT_OPTIONS: { value: `${UserSortField}:${SortOrder}`; label: string }[] = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'name:desc', label: 'Name, Z to A' },
  { value: 'email:asc', label: 'E-mail, A to Z' },
  { value: 'email:desc', label: 'E-mail, Z to A' },
];

/** Search (debounced), role and status filters, and, on phones, the sort order the table headers offer elsewhere. */
export function UsersToolbar({
  params,
  update,
  searchRef,
}: {
  params: ListParams;
  update: UpdateListParams;
  searchRef?: Ref<HTMLInputElement>;
}) {
  const search = useSearchText(params.q, (q) => update({ q }, { replace: true }));
  return (
    <form
      className="admin-users__toolbar"
      role="search"
      aria-label="Filter users"
      onSubmit={(event) => {
        event.preventDefault();
        search.submit();
      }}
    >
      <Field label="Search" id={SEARCH_INPUT_ID} className="admin-users__search">
        {(control) => (
          <input
            {...control}
            ref={searchRef}
            className="input"
            type="search"
            value={search.text}
            maxLength={USER_SEARCH_MAX_LENGTH}
            placeholder="Name or e-mail"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => search.setText(event.target.value)}
          />
        )}
      </Field>
      <Field label="Role">
        {(control) => (
          <select
            {...control}
            className="input"
            value={params.role}
            onChange={(event) => update({ role: event.target.value as Role | '' })}
          >
            <option value="">All roles</option>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        )}
      </Field>
      <Field label="Status">
        {(control) => (
          <select
            {...control}
            className="input"
            value={params.status}
            onChange={(event) => update({ status: event.target.value as UserStatus | '' })}
          >
            <option value="">All statuses</option>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
          </select>
        )}
      </Field>
      {/* Phones show the table as cards without column headers: sorting moves here. */}
      <Field label="Sort by" className="admin-users__mobile-sort">
        {(control) => (
          <select
            {...control}
            className="input"
            value={`${params.sort}:${params.order}`}
            onChange={(event) => {
              const [sort, order] = event.target.value.split(':') as [UserSortField, SortOrder];
              update({ sort, order });
            }}
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </form>
  );
}
