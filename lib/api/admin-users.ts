import type { Role } from './auth.js';

/**
 * Request and response shapes of `/api/admin/users` (src/admin-users), shared by the server's DTOs
 * and mappers and the client's `features/admin-users/api.ts`.
 */

export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const USER_SORT_FIELDS = ['createdAt', 'name', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Newest first when sorted by sign-up date, A to Z by name and e-mail. */
export const defaultSortOrder = (sort: UserSortField): SortOrder => (sort === 'createdAt' ? 'desc' : 'asc');

/** The longest `q` the list accepts. */
export const USER_SEARCH_MAX_LENGTH = 100;

/** `GET /api/admin/users` query. Absent values take the defaults. */
export interface AdminUserListQuery {
  /** Matched literally and case-insensitively in the name or e-mail. */
  q?: string;
  role?: Role;
  status?: UserStatus;
  sort?: UserSortField;
  /** Defaults to `defaultSortOrder(sort)`. */
  order?: SortOrder;
  /** 1-based. */
  page?: number;
  pageSize?: number;
}

/** A user as admins see them: never the password hash or other internals. */
export interface AdminUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
  /** ISO 8601. */
  createdAt: string;
}

export interface AdminUserList {
  items: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * `GET /api/admin/users/:id`: one user with what the details panel shows. Orders, licences and
 * subscriptions do not exist yet: the empty values let the panel render their empty states now
 * and real data later, unchanged.
 */
export interface AdminUserDetail extends AdminUser {
  /** Live sessions: not revoked, not expired. */
  sessions: { active: number };
  orders: unknown[];
  licenses: unknown[];
  subscription: null;
}

/** `PATCH /api/admin/users/:id/role` */
export interface UpdateUserRoleRequest {
  role: Role;
}

export interface UserRoleChangeResponse {
  user: AdminUser;
  /** False when the user already had this role (nothing written, nothing audited). */
  changed: boolean;
}

/** `PATCH /api/admin/users/:id/status` */
export interface UpdateUserStatusRequest {
  status: UserStatus;
}

export interface UserStatusChangeResponse {
  user: AdminUser;
  changed: boolean;
  /** Sessions ended by a disable (0 for an enable). */
  revokedSessions: number;
}

/** `POST /api/admin/users/:id/sessions/revoke` */
export interface RevokeSessionsResponse {
  revoked: number;
}

/**
 * The audit-log actions (`AuditLogEntry.action` of lib/api/audit.ts) that these endpoints write,
 * with the `before` → `after` each records:
 * - changeRole: `{ role }` → `{ role }`
 * - disable: `{ status }` → `{ status, revokedSessions }`
 * - enable: `{ status }` → `{ status }`
 * - revokeSessions: `{ activeSessions }` → `{ activeSessions: 0, revoked }`
 */
export const ADMIN_USER_AUDIT_ACTIONS = {
  changeRole: 'user.role.change',
  disable: 'user.disable',
  enable: 'user.enable',
  revokeSessions: 'user.sessions.revoke',
} as const;
