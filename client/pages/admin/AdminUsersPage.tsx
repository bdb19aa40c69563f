import { keepPreviousData, type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, type ReactNode, type RefObject, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SessionUser } from '../../../lib/api/auth.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useToast } from '../../components/Toaster.js';
import { api } from '../../app/api-client.js';
import { useMe } from '../../app/data-source.js';
import '../../features/admin-users/admin-users.css';

// The shapes of /api/admin/users and /api/admin/audit-log (src/admin-users/dto, src/audit/dto).
type Role = 'user' | 'admin';
type Status = 'active' | 'disabled';
type SortField = 'createdAt' | 'name' | 'email';
type SortOrder = 'asc' | 'desc';

interface AdminUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: Status;
  createdAt: string;
}
interface AdminUserList {
  items: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}
interface AdminUserDetail extends AdminUser {
  sessions: { active: number };
  orders: unknown[];
  licenses: unknown[];
  subscription: unknown;
}
interface AuditEntry {
  id: string;
  at: string;
  actor: { id: string; email: string };
  action: string;
  target: { type: string; id: string; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

interface ListParams {
  q: string;
  role: Role | '';
  status: Status | '';
  sort: SortField;
  order: SortOrder;
  page: number;
  pageSize: number;
}

const PAGE_SIZES = [20, 50, 100] as const;
const SEARCH_DEBOUNCE_MS = 300;
const SORT_LABELS: Record<SortField, string> = { createdAt: 'Joined', name: 'Name', email: 'E-mail' };
const defaultOrder = (sort: SortField): SortOrder => (sort === 'createdAt' ? 'desc' : 'asc');
const oneOf = <T extends string>(value: string | null, options: readonly T[]): T | undefined =>
  options.includes(value as T) ? (value as T) : undefined;

/** The list state lives in the URL (shareable, survives reload and Back); junk falls back to defaults. */
function readParams(search: URLSearchParams): ListParams {
  const sort = oneOf(search.get('sort'), ['createdAt', 'name', 'email'] as const) ?? 'createdAt';
  const page = Number(search.get('page'));
  const pageSize = Number(search.get('pageSize'));
  return {
    q: (search.get('q') ?? '').slice(0, 100),
    role: oneOf(search.get('role'), ['user', 'admin'] as const) ?? '',
    status: oneOf(search.get('status'), ['active', 'disabled'] as const) ?? '',
    sort,
    order: oneOf(search.get('order'), ['asc', 'desc'] as const) ?? defaultOrder(sort),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : PAGE_SIZES[0],
  };
}

/** Only what differs from the defaults, so that URLs stay short. */
function toSearch(params: ListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.role) search.set('role', params.role);
  if (params.status) search.set('status', params.status);
  if (params.sort !== 'createdAt') search.set('sort', params.sort);
  if (params.order !== defaultOrder(params.sort)) search.set('order', params.order);
  if (params.page !== 1) search.set('page', String(params.page));
  if (params.pageSize !== PAGE_SIZES[0]) search.set('pageSize', String(params.pageSize));
  return search;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function describeAuditEntry(entry: AuditEntry): string {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  switch (entry.action) {
    case 'user.role.change':
      return `Role changed from ${String(before.role)} to ${String(after.role)}`;
    case 'user.disable':
      return typeof after.revokedSessions === 'number' && after.revokedSessions > 0
        ? `Disabled; ${plural(after.revokedSessions, 'session')} ended`
        : 'Disabled';
    case 'user.enable':
      return 'Enabled';
    case 'user.sessions.revoke':
      return `Signed out everywhere (${plural(Number(after.revoked ?? 0), 'session')} ended)`;
    default:
      return entry.action;
  }
}

const adminUsersKey = ['admin', 'users'] as const;
const auditKey = ['admin', 'audit-log'] as const;

export default function AdminUsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const [selected, setSelected] = useState<{ id: string; opener: HTMLElement | null } | null>(null);

  // Read through a ref: the debounced search calls update() from an older render's closure.
  const latest = useRef({ params, setSearchParams });
  latest.current = { params, setSearchParams };
  // The URL changes only once the navigation's loaders have run: a change made meanwhile (a filter
  // picked while the debounced search is on its way) builds on the navigation in flight, not on the
  // URL it is about to replace, or one of the two would be lost.
  const inFlight = useRef<ListParams | null>(null);
  useEffect(() => {
    inFlight.current = null;
  }, [searchParams]);
  const update = useCallback((patch: Partial<ListParams>, options: { replace?: boolean } = {}) => {
    const { setSearchParams: navigate } = latest.current;
    const current = inFlight.current ?? latest.current.params;
    const keys = Object.keys(patch) as (keyof ListParams)[];
    if (keys.every((key) => patch[key] === current[key])) return;
    const next = { ...current, ...patch };
    // Any change other than paging starts again at the first page.
    if (!('page' in patch)) next.page = 1;
    inFlight.current = next;
    navigate(toSearch(next), { replace: options.replace ?? false, preventScrollReset: true });
  }, []);

  const list = useQuery({
    queryKey: [...adminUsersKey, 'list', params],
    queryFn: ({ signal }) => api<AdminUserList>(`/api/admin/users?${toSearch(params).toString()}`, { signal }),
    placeholderData: keepPreviousData,
  });

  const filtered = Boolean(params.q || params.role || params.status);

  return (
    <>
      <PageHeader title="Users">Search, filter and manage accounts: roles, status and sessions.</PageHeader>
      <section className="card admin-users" aria-labelledby="admin-users-title">
        <h2 id="admin-users-title" className="visually-hidden">
          All users
        </h2>
        <Toolbar params={params} update={update} />
        <UsersTable
          params={params}
          update={update}
          list={list}
          filtered={filtered}
          onClearFilters={() => setSearchParams(toSearch({ ...params, q: '', role: '', status: '', page: 1 }))}
          onOpen={(id, opener) => setSelected({ id, opener })}
        />
      </section>
      {selected ? (
        <UserPanel
          key={selected.id}
          userId={selected.id}
          onClose={() => {
            const opener = selected.opener;
            setSelected(null);
            // Back to the "Manage" button that opened the panel, or to the search box if that row
            // left the list (e.g. a disabled user under the "Active" filter).
            requestAnimationFrame(() => (opener?.isConnected ? opener : document.getElementById('admin-users-q'))?.focus());
          }}
        />
      ) : null}
    </>
  );
}

function Toolbar({
  params,
  update,
}: {
  params: ListParams;
  update: (patch: Partial<ListParams>, options?: { replace?: boolean }) => void;
}) {
  const [text, setText] = useState(params.q);
  const pushed = useRef(params.q);

  // Follow the URL when it changes from outside (Back, "Clear filters"), not when we just wrote it.
  useEffect(() => {
    if (params.q !== pushed.current) {
      pushed.current = params.q;
      setText(params.q);
    }
  }, [params.q]);

  const commit = (value: string) => {
    const q = value.trim();
    pushed.current = q;
    update({ q }, { replace: true }); // a no-op when q did not change
  };

  useEffect(() => {
    const timer = window.setTimeout(() => commit(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]); // only typing restarts the timer

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    commit(text);
  };

  return (
    <form className="admin-users__toolbar" role="search" aria-label="Filter users" onSubmit={onSubmit}>
      <div className="field admin-users__search">
        <label htmlFor="admin-users-q">Search</label>
        <input
          id="admin-users-q"
          className="input"
          type="search"
          value={text}
          maxLength={100}
          placeholder="Name or e-mail"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="admin-users-role">Role</label>
        <select
          id="admin-users-role"
          className="input"
          value={params.role}
          onChange={(event) => update({ role: event.target.value as Role | '' })}
        >
          <option value="">All roles</option>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="admin-users-status">Status</label>
        <select
          id="admin-users-status"
          className="input"
          value={params.status}
          onChange={(event) => update({ status: event.target.value as Status | '' })}
        >
          <option value="">All statuses</option>
          <option value="active">Active</option>
          <option value="disabled">Disabled</option>
        </select>
      </div>
      {/* Phones show the table as cards without column headers: sorting moves here. */}
      <div className="field admin-users__mobile-sort">
        <label htmlFor="admin-users-sort">Sort by</label>
        <select
          id="admin-users-sort"
          className="input"
          value={`${params.sort}:${params.order}`}
          onChange={(event) => {
            const [sort, order] = event.target.value.split(':') as [SortField, SortOrder];
            update({ sort, order });
          }}
        >
          <option value="createdAt:desc">Newest first</option>
          <option value="createdAt:asc">Oldest first</option>
          <option value="name:asc">Name, A to Z</option>
          <option value="name:desc">Name, Z to A</option>
          <option value="email:asc">E-mail, A to Z</option>
          <option value="email:desc">E-mail, Z to A</option>
        </select>
      </div>
    </form>
  );
}

function SortHeader({ field, params, update }: { field: SortField; params: ListParams; update: (patch: Partial<ListParams>) => void }) {
  const active = params.sort === field;
  const next: SortOrder = active ? (params.order === 'asc' ? 'desc' : 'asc') : defaultOrder(field);
  return (
    <th scope="col" aria-sort={active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="admin-users__sort" onClick={() => update({ sort: field, order: next })}>
        {SORT_LABELS[field]}
        <span aria-hidden="true" className="admin-users__sort-icon">
          {active ? (params.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
        <span className="visually-hidden">, sort {next === 'asc' ? 'ascending' : 'descending'}</span>
      </button>
    </th>
  );
}

function RoleBadge({ role }: { role: Role }) {
  return <span className={`badge${role === 'admin' ? ' badge--accent' : ''}`}>{role === 'admin' ? 'Admin' : 'User'}</span>;
}

function StatusBadge({ status }: { status: Status }) {
  return <span className={`badge admin-users__status admin-users__status--${status}`}>{status === 'active' ? 'Active' : 'Disabled'}</span>;
}

function UsersTable({
  params,
  update,
  list,
  filtered,
  onClearFilters,
  onOpen,
}: {
  params: ListParams;
  update: (patch: Partial<ListParams>) => void;
  list: UseQueryResult<AdminUserList>;
  filtered: boolean;
  onClearFilters: () => void;
  onOpen: (id: string, opener: HTMLElement) => void;
}) {
  const { data, isPending, isError, isFetching, isPlaceholderData, refetch } = list;

  if (isError && !data) {
    return (
      <div className="alert alert--error admin-users__error" role="alert">
        <span>Could not load the users. {list.error instanceof Error ? list.error.message : ''}</span>
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }

  const busy = isPending || (isFetching && isPlaceholderData);
  const empty = data && data.items.length === 0;

  return (
    <>
      {empty ? null : (
        <div className="admin-users__table-wrap">
          <table className="table table--stack admin-users__table" aria-busy={busy || undefined} aria-describedby="admin-users-summary">
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
            <tbody className={isFetching && isPlaceholderData ? 'admin-users__stale' : undefined}>
              {isPending
                ? Array.from({ length: 5 }, (_, row) => (
                    <tr key={row} aria-hidden="true" className="admin-users__skeleton-row">
                      {[60, 80, 30, 35, 40, 25].map((width, cell) => (
                        <td key={cell}>
                          <div className="skeleton" style={{ width: `${width}%`, minWidth: '3rem' }} />
                        </td>
                      ))}
                    </tr>
                  ))
                : data!.items.map((user) => (
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
                        <time dateTime={user.createdAt}>{dateFormat.format(new Date(user.createdAt))}</time>
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
      {empty ? (
        <div className="empty-state admin-users__empty">
          <h3>{filtered ? 'No users match' : params.page > 1 ? 'Nothing on this page' : 'No users yet'}</h3>
          <p>
            {filtered
              ? 'Try another search, or clear the filters to see everyone.'
              : params.page > 1
                ? 'This page is past the end of the list.'
                : 'Accounts appear here as soon as people register.'}
          </p>
          {filtered ? (
            <button type="button" className="button" onClick={onClearFilters}>
              Clear filters
            </button>
          ) : params.page > 1 ? (
            <button type="button" className="button" onClick={() => update({ page: 1 })}>
              Back to page 1
            </button>
          ) : null}
        </div>
      ) : null}
      {isError && data ? (
        <div className="alert alert--error admin-users__error" role="alert">
          <span>Could not refresh the list.</span>
          <button type="button" className="button button--small" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : null}
      <Pager params={params} data={data} loading={isPending} update={update} />
    </>
  );
}

function Pager({
  params,
  data,
  loading,
  update,
}: {
  params: ListParams;
  data: AdminUserList | undefined;
  loading: boolean;
  update: (patch: Partial<ListParams>) => void;
}) {
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / params.pageSize));
  const from = data && data.items.length ? (data.page - 1) * data.pageSize + 1 : 0;
  const to = data ? from + data.items.length - 1 : 0;
  return (
    <div className="admin-users__pager">
      <p id="admin-users-summary" className="admin-users__summary" role="status">
        {loading
          ? 'Loading users…'
          : from
            ? `Showing ${from}–${to} of ${total}`
            : total
              ? `${plural(total, 'user')} in total`
              : 'No users found'}
      </p>
      {!loading && total === 0 ? null : (
        <div className="admin-users__pager-controls">
          <label className="admin-users__page-size">
            <span>Per page</span>
            <select className="input" value={params.pageSize} onChange={(event) => update({ pageSize: Number(event.target.value) })}>
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          <nav aria-label="Pages" className="admin-users__pages">
            <button
              type="button"
              className="button button--small"
              disabled={params.page <= 1 || loading}
              onClick={() => update({ page: Math.min(params.page - 1, pages) })}
            >
              Previous
            </button>
            <span className="admin-users__page-of">
              Page {Math.min(params.page, pages)} of {pages}
            </span>
            <button
              type="button"
              className="button button--small"
              disabled={params.page >= pages || loading}
              onClick={() => update({ page: params.page + 1 })}
            >
              Next
            </button>
          </nav>
        </div>
      )}
    </div>
  );
}

type PendingAction = { kind: 'role'; role: Role } | { kind: 'status'; status: Status } | { kind: 'revoke' };

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The details panel: a modal dialog sliding in from the right. Not a native <dialog> with
 * showModal(): that puts the panel in the top layer, above the toasts, and makes the page (with
 * the toaster's live region) inert, so results would be neither seen nor announced. Instead:
 * aria-modal, a backdrop, focus kept inside with Tab, Escape to close, focus returned on close.
 */
function UserPanel({ userId, onClose }: { userId: string; onClose: () => void }) {
  const panelRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const me = useMe();
  const [pending, setPending] = useState<{ action: PendingAction; returnFocus: HTMLElement | null } | null>(null);

  const detail = useQuery({
    queryKey: [...adminUsersKey, 'detail', userId],
    queryFn: ({ signal }) => api<AdminUserDetail>(`/api/admin/users/${userId}`, { signal }),
    // Opening the panel always asks again: sessions and status change outside this page (a sign-in,
    // another admin), and the actions below are decided from what the panel shows.
    staleTime: 0,
    refetchOnMount: 'always',
  });

  useEffect(() => {
    headingRef.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden'; // the page behind does not scroll under the panel
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  const restoreFocus = (target: HTMLElement | null) =>
    requestAnimationFrame(() => {
      const button = target as HTMLButtonElement | null;
      if (button?.isConnected && !button.disabled) button.focus();
      else headingRef.current?.focus();
    });

  const cancelPending = () => {
    const target = pending?.returnFocus ?? null;
    setPending(null);
    restoreFocus(target);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      // Escape first backs out of a confirmation, then closes the panel.
      if (pending) cancelPending();
      else onClose();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === headingRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const ask = (action: PendingAction) => setPending({ action, returnFocus: document.activeElement as HTMLElement | null });

  const user = detail.data;
  const isSelf = Boolean(me && user && me.id === user.id);

  return (
    <>
      {/* Pointer-only way to close; keyboard users have Escape and the Close button. */}
      <div className="admin-users__backdrop" aria-hidden="true" onClick={onClose} />
      <div ref={panelRef} className="admin-users__panel" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="admin-users__panel-header">
          <h2 id={titleId} ref={headingRef} tabIndex={-1}>
            {user ? user.name : 'User details'}
          </h2>
          <button type="button" className="button button--ghost button--small" onClick={onClose}>
            Close<span className="visually-hidden"> user details</span>
          </button>
        </div>
        {detail.isPending ? (
          <div aria-busy="true" aria-label="Loading user details" className="admin-users__panel-body">
            <div className="skeleton" style={{ height: '1.25rem', width: '60%' }} />
            <div className="skeleton" style={{ height: '4rem' }} />
            <div className="skeleton" style={{ height: '6rem' }} />
          </div>
        ) : !user ? (
          <div className="admin-users__panel-body">
            <div className="alert alert--error admin-users__error" role="alert">
              <span>{detail.error?.message ?? 'Could not load this user.'}</span>
              {detail.error && 'status' in detail.error && detail.error.status === 404 ? null : (
                <button type="button" className="button button--small" onClick={() => void detail.refetch()}>
                  Retry
                </button>
              )}
            </div>
          </div>
        ) : (
          <UserPanelBody
            user={user}
            me={me}
            isSelf={isSelf}
            pending={pending}
            ask={ask}
            onDone={(returnFocus) => {
              setPending(null);
              restoreFocus(returnFocus);
            }}
            cancelPending={cancelPending}
          />
        )}
      </div>
    </>
  );
}

function UserPanelBody({
  user,
  me,
  isSelf,
  pending,
  ask,
  onDone,
  cancelPending,
}: {
  user: AdminUserDetail;
  me: SessionUser | null;
  isSelf: boolean;
  pending: { action: PendingAction; returnFocus: HTMLElement | null } | null;
  ask: (action: PendingAction) => void;
  onDone: (returnFocus: HTMLElement | null) => void;
  cancelPending: () => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const [role, setRole] = useState<Role>(user.role);
  const roleId = useId();
  useEffect(() => setRole(user.role), [user.role]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: adminUsersKey });
    void queryClient.invalidateQueries({ queryKey: [...auditKey, user.id] });
  };

  const mutation = useMutation({
    mutationFn: async (action: PendingAction): Promise<string> => {
      if (action.kind === 'role') {
        const result = await api<{ changed: boolean }>(`/api/admin/users/${user.id}/role`, {
          method: 'PATCH',
          body: { role: action.role },
        });
        if (!result.changed) return `${user.name} already has the ${action.role} role`;
        return action.role === 'admin' ? `${user.name} is now an admin` : `${user.name} is no longer an admin`;
      }
      if (action.kind === 'status') {
        const result = await api<{ changed: boolean; revokedSessions: number }>(`/api/admin/users/${user.id}/status`, {
          method: 'PATCH',
          body: { status: action.status },
        });
        if (action.status === 'active')
          return result.changed ? `${user.name} is enabled and can sign in again` : `${user.name} is already active`;
        return `${user.name} is disabled; ${plural(result.revokedSessions, 'session')} ended`;
      }
      const result = await api<{ revoked: number }>(`/api/admin/users/${user.id}/sessions/revoke`, { method: 'POST' });
      return `${user.name} is signed out everywhere (${plural(result.revoked, 'session')} ended)`;
    },
    onSuccess: (message, action) => {
      toast(message, 'success');
      // Stepping down or signing oneself out ends access to this page: leave it for the dashboard.
      if (isSelf && ((action.kind === 'role' && action.role === 'user') || action.kind === 'revoke')) {
        void queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
        void navigate(action.kind === 'revoke' ? '/login' : '/dashboard/lounge');
        return;
      }
      refresh();
    },
    onError: (error) => {
      toast(error.message, 'error');
      setRole(user.role); // the select shows what is stored, not the refused choice
      refresh();
    },
    onSettled: () => onDone(pending?.returnFocus ?? null),
  });

  const confirmText = (action: PendingAction): { text: string; button: string; danger: boolean } => {
    if (action.kind === 'role') {
      if (action.role === 'admin') {
        return {
          text: `Make ${user.name} an admin? They can manage users and settings from their next page load.`,
          button: 'Make admin',
          danger: false,
        };
      }
      return {
        text: isSelf
          ? 'Remove your own admin role? You lose access to the admin area at once.'
          : `Remove ${user.name}’s admin role? They lose access to the admin area on their next request.`,
        button: 'Remove admin role',
        danger: true,
      };
    }
    if (action.kind === 'status') {
      return action.status === 'disabled'
        ? {
            text: `Disable ${user.name}? They are signed out everywhere and cannot sign in until enabled again.`,
            button: 'Disable account',
            danger: true,
          }
        : { text: `Enable ${user.name}? They can sign in again with their password.`, button: 'Enable account', danger: false };
    }
    return {
      text: isSelf
        ? 'Sign yourself out everywhere, including this browser?'
        : `Sign ${user.name} out everywhere? ${plural(user.sessions.active, 'active session')} will end; they can sign in again.`,
      button: 'Sign out everywhere',
      danger: true,
    };
  };

  const busy = mutation.isPending;
  // The question appears in the section whose button asked it, and takes the focus.
  const confirmFor = (kinds: PendingAction['kind'][]) =>
    pending && kinds.includes(pending.action.kind) ? (
      <ConfirmBox {...confirmText(pending.action)} busy={busy} onConfirm={() => mutation.mutate(pending.action)} onCancel={cancelPending} />
    ) : null;

  return (
    <div className="admin-users__panel-body">
      <dl className="admin-users__facts">
        <div>
          <dt>E-mail</dt>
          <dd className="admin-users__email">{user.email}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>
            <RoleBadge role={user.role} />
            {isSelf ? <span className="muted admin-users__you"> (you)</span> : null}
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={user.status} />
          </dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>
            <time dateTime={user.createdAt}>{dateFormat.format(new Date(user.createdAt))}</time>
          </dd>
        </div>
      </dl>

      <PanelSection title="Access">
        <div className="admin-users__role-row">
          <div className="field">
            <label htmlFor={roleId}>Role</label>
            <select id={roleId} className="input" value={role} disabled={busy} onChange={(event) => setRole(event.target.value as Role)}>
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
          </div>
          <button
            type="button"
            className="button"
            disabled={busy || role === user.role || Boolean(pending)}
            onClick={() => ask({ kind: 'role', role })}
          >
            Change role
          </button>
        </div>
        <div className="admin-users__status-row">
          {user.status === 'active' ? (
            <button
              type="button"
              className="button button--danger"
              disabled={busy || isSelf || Boolean(pending)}
              aria-describedby={isSelf ? `${roleId}-self` : undefined}
              onClick={() => ask({ kind: 'status', status: 'disabled' })}
            >
              Disable account
            </button>
          ) : (
            <button
              type="button"
              className="button"
              disabled={busy || Boolean(pending)}
              onClick={() => ask({ kind: 'status', status: 'active' })}
            >
              Enable account
            </button>
          )}
          {isSelf ? (
            <p className="field__hint" id={`${roleId}-self`}>
              You cannot disable your own account.
            </p>
          ) : null}
        </div>
        {confirmFor(['role', 'status'])}
      </PanelSection>

      <PanelSection title="Sessions">
        <div className="admin-users__sessions-row">
          <p>
            {user.sessions.active === 0
              ? 'No active sessions: signed out everywhere.'
              : `${plural(user.sessions.active, 'active session')} (browsers and devices signed in).`}
          </p>
          <button
            type="button"
            className="button button--danger"
            disabled={busy || Boolean(pending)}
            onClick={() => ask({ kind: 'revoke' })}
          >
            Sign out everywhere
          </button>
        </div>
        {confirmFor(['revoke'])}
      </PanelSection>

      <PanelSection title="Orders">
        <p className="muted admin-users__none">No orders yet.</p>
      </PanelSection>
      <PanelSection title="Licences">
        <p className="muted admin-users__none">No licences yet.</p>
      </PanelSection>
      <PanelSection title="Subscription">
        <p className="muted admin-users__none">No subscription.</p>
      </PanelSection>

      <PanelSection title="Recent activity">
        <AuditList userId={user.id} meEmail={me?.email} />
      </PanelSection>
    </div>
  );
}

function PanelSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="admin-users__section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

function ConfirmBox({
  text,
  button,
  danger,
  busy,
  onConfirm,
  onCancel,
}: {
  text: string;
  button: string;
  danger: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const confirmRef: RefObject<HTMLButtonElement | null> = useRef(null);
  const textId = useId();
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div className="admin-users__confirm" role="group" aria-labelledby={textId}>
      <p id={textId}>{text}</p>
      <div className="admin-users__confirm-actions">
        <button
          ref={confirmRef}
          type="button"
          className={`button ${danger ? 'button--destructive' : 'button--primary'}`}
          disabled={busy}
          onClick={onConfirm}
        >
          {busy ? 'Working…' : button}
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function AuditList({ userId, meEmail }: { userId: string; meEmail?: string }) {
  const audit = useQuery({
    queryKey: [...auditKey, userId],
    queryFn: ({ signal }) =>
      api<{ items: AuditEntry[]; total: number }>(`/api/admin/audit-log?targetId=${encodeURIComponent(userId)}&pageSize=10`, { signal }),
  });
  if (audit.isPending) {
    return (
      <div aria-busy="true" aria-label="Loading recent activity" className="admin-users__audit-loading">
        <div className="skeleton" style={{ height: '1rem' }} />
        <div className="skeleton" style={{ height: '1rem', width: '70%' }} />
      </div>
    );
  }
  if (audit.isError) {
    return (
      <div className="alert alert--error admin-users__error" role="alert">
        <span>Could not load recent activity.</span>
        <button type="button" className="button button--small" onClick={() => void audit.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (audit.data.items.length === 0) return <p className="muted admin-users__none">No admin actions on this account yet.</p>;
  return (
    <ol className="admin-users__audit">
      {audit.data.items.map((entry) => (
        <li key={entry.id}>
          <span className="admin-users__audit-what">{describeAuditEntry(entry)}</span>
          <span className="muted admin-users__audit-meta">
            by {entry.actor.email === meEmail ? 'you' : entry.actor.email} ·{' '}
            <time dateTime={entry.at}>{dateTimeFormat.format(new Date(entry.at))}</time>
          </span>
        </li>
      ))}
      {audit.data.total > audit.data.items.length ? (
        <li className="muted">and {plural(audit.data.total - audit.data.items.length, 'earlier action')}</li>
      ) : null}
    </ol>
  );
}
