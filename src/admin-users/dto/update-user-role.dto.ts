import { IsIn } from 'class-validator';
import { ROLES, type Role } from '../../../lib/api/auth.js';

export class UpdateUserRoleDto {
  @IsIn(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` })
  role!: Role;
}
