import { IsIn } from 'class-validator';
import { type UpdateUserStatusRequest, USER_STATUSES, type UserStatus } from '../../../lib/api/admin-users.js';

export class UpdateUserStatusDto implements UpdateUserStatusRequest {
  @IsIn(USER_STATUSES, { message: `status must be one of: ${USER_STATUSES.join(', ')}` })
  status!: UserStatus;
}
