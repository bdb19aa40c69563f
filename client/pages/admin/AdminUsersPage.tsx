import { useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader.js';
import { UserPanel } from '../../features/admin-users/components/UserPanel.js';
import { UsersPager } from '../../features/admin-users/components/UsersPager.js';
import { UsersTable } from '../../features/admin-users/components/UsersTable.js';
import { UsersToolbar } from '../../features/admin-users/components/UsersToolbar.js';
import { useUserList } from '../../features/admin-users/hooks/useUserList.js';
import '../../features/admin-users/admin-users.css';

export default function AdminUsersPage() {
  const { params, filtered, update, clearFilters, list } = useUserList();
  const [selected, setSelected] = useState<{ id: string; opener: HTMLElement } | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);

  return (
    <>
      <PageHeader title="Users">Search, filter and manage accounts: roles, status and sessions.</PageHeader>
      <section className="card admin-users" aria-labelledby="admin-users-title">
        <h2 id="admin-users-title" className="visually-hidden">
          All users
        </h2>
        <UsersToolbar params={params} update={update} searchRef={searchBox} />
        <UsersTable
          params={params}
          update={update}
          list={list}
          filtered={filtered}
          onClearFilters={clearFilters}
          onOpen={(id, opener) => setSelected({ id, opener })}
        />
        <UsersPager params={params} list={list} update={update} />
      </section>
      {selected ? (
        <UserPanel
          key={selected.id}
          userId={selected.id}
          onClose={() => setSelected(null)}
          // Back to the "Manage" button that opened the panel, or to the search box if that row left
          // the list (e.g. a disabled user under the "Active" filter).
          returnFocus={() => (selected.opener.isConnected ? selected.opener : searchBox.current)}
        />
      ) : null}
    </>
  );
}
