import type { Role } from '../../../lib/api/auth.js';
import type { UserStatus, UserDocument } from '../../users/schemas/user.schema.js';

/** A user as admins see them: never the password hash or other internals. */
export interface AdminUserResponse {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
  createdAt: string;
}

export interface AdminUserListResponse {
  items: AdminUserResponse[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One user with what the details panel shows. Orders, licences and subscriptions do not exist yet:
 * the empty values let the page render their empty states now and real data later, unchanged.
 */
export interface AdminUserDetailResponse extends AdminUserResponse {
  sessions: { active: number };
  orders: unknown[];
  licenses: unknown[];
  subscription: null;
}

export interface UserRoleChangeResponse {
  user: AdminUserResponse;
  /** False when the user already had this role (nothing written, nothing audited). */
  changed: boolean;
}

export interface UserStatusChangeResponse {
  user: AdminUserResponse;
  changed: boolean;
  revokedSessions: number;
}

export interface RevokeSessionsResponse {
  revoked: number;
}

export function toAdminUserResponse(user: UserDocument): AdminUserResponse {
  return {
    id: user.id as string,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    createdAt: user.createdAt.toISOString(),
  };
}
