import {
  type AdminUserListQuery,
  defaultSortOrder,
  SORT_ORDERS,
  type SortOrder,
  USER_SEARCH_MAX_LENGTH,
  USER_SORT_FIELDS,
  USER_STATUSES,
  type UserSortField,
  type UserStatus,
} from '../../../lib/api/admin-users.js';
import { ROLES, type Role } from '../../../lib/api/auth.js';

/** The state of the users list, as the URL carries it: every value filled in, '' for "any". */
export interface ListParams {
  q: string;
  role: Role | '';
  status: UserStatus | '';
  sort: UserSortField;
  order: SortOrder;
  page: number;
  pageSize: PageSize;
}

export const PAGE_SIZES = [20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export const SORT_LABELS: Record<UserSortField, string> = { createdAt: 'Joined', name: 'Name', email: 'E-mail' };

const oneOf = <T extends string | number>(value: unknown, options: readonly T[]): T | undefined =>
  options.find((option) => option === value);

/** The list state lives in the URL (shareable, survives reload and Back); junk falls back to defaults. */
export function readParams(search: URLSearchParams): ListParams {
  const sort = oneOf(search.get('sort'), USER_SORT_FIELDS) ?? 'createdAt';
  const page = Number(search.get('page'));
  return {
    q: (search.get('q') ?? '').slice(0, USER_SEARCH_MAX_LENGTH),
    role: oneOf(search.get('role'), ROLES) ?? '',
    status: oneOf(search.get('status'), USER_STATUSES) ?? '',
    sort,
    order: oneOf(search.get('order'), SORT_ORDERS) ?? defaultSortOrder(sort),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: oneOf(Number(search.get('pageSize')), PAGE_SIZES) ?? PAGE_SIZES[0],
  };
}

/** Only what differs from the defaults, so that URLs (and query keys) stay short. */
export function toQuery(params: ListParams): AdminUserListQuery {
  const query: AdminUserListQuery = {};
  if (params.q) query.q = params.q;
  if (params.role) query.role = params.role;
  if (params.status) query.status = params.status;
  if (params.sort !== 'createdAt') query.sort = params.sort;
  if (params.order !== defaultSortOrder(params.sort)) query.order = params.order;
  if (params.page !== 1) query.page = params.page;
  if (params.pageSize !== PAGE_SIZES[0]) query.pageSize = params.pageSize;
  return query;
}

/** A query object as URL parameters, leaving out what is unset. */
export function toSearch(query: object): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  return search;
}

export const isFiltered = (params: ListParams) => Boolean(params.q || params.role || params.status);
