import { IsIn } from 'class-validator';
import type { UpdateUserRoleRequest } from '../../../lib/api/admin-users.js';
import { ROLES, type Role } from '../../../lib/auth/session-user.js';

export class UpdateUserRoleDto implements UpdateUserRoleRequest {
  @IsIn(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` })
  role!: Role;
}
