import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminUserList } from '../../../../lib/api/admin-users.js';
import { Field } from '../../../components/FormField.js';
import { Pager } from '../../../components/Pager.js';
import { plural } from '../format.js';
import type { UpdateListParams } from '../hooks/useUserListParams.js';
import { type ListParams, PAGE_SIZES, type PageSize } from '../list-params.js';
import { SUMMARY_ID } from './UsersTable.js';
import '../admin-users.css';

function summary(list: UseQueryResult<AdminUserList>): string {
  if (list.isPending) return 'Loading users…';
  const data = list.data;
  if (!data || data.total === 0) return 'No users found';
  if (data.items.length === 0) return `${plural(data.total, 'user')} in total`;
  const from = (data.page - 1) * data.pageSize + 1;
  return `Showing ${from}–${from + data.items.length - 1} of ${data.total}`;
}

/** Where in the list we are, how many per page, and the way to the other pages. */
export function UsersPager({
  params,
  list,
  update,
}: {
  params: ListParams;
  list: UseQueryResult<AdminUserList>;
  update: UpdateListParams;
}) {
  const total = list.data?.total ?? 0;
  return (
    <div className="admin-users__pager">
      <p id={SUMMARY_ID} className="admin-users__summary" role="status">
        {summary(list)}
      </p>
      {!list.isPending && total === 0 ? null : (
        <div className="admin-users__pager-controls">
          <Field label="Per page" className="admin-users__page-size">
            {(control) => (
              <select
                {...control}
                className="input"
                value={params.pageSize}
                onChange={(event) => update({ pageSize: Number(event.target.value) as PageSize })}
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Pager
            label="Pages"
            page={params.page}
            pageCount={Math.ceil(total / params.pageSize)}
            busy={list.isPending}
            onPage={(page) => update({ page })}
          />
        </div>
      )}
    </div>
  );
}
