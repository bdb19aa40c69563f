import type { AdminUser } from '../../../lib/api/admin-users.js';
import type { UserDocument } from '../../users/schemas/user.schema.js';

/** The stored user as admins see them (lib/api/admin-users.ts): no password hash or other internals. */
export function toAdminUserResponse(user: UserDocument): AdminUser {
  return {
    id: user.id as string,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    createdAt: user.createdAt.toISOString(),
  };
}
