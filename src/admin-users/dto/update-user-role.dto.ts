import { IsIn } from 'class-validator';
import type { UpdateUserRoleRequest } from '../../../lib/api/admin-users.js';
import { ROLES, type Role } from '../../../lib/api/auth.js';

export class UpdateUserRoleDto implements UpdateUserRoleRequest {
  @IsIn(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` })
  role!: Role;
}
