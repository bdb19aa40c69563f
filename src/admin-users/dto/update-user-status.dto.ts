import { IsIn } from 'class-validator';
import { USER_STATUSES, type UserStatus } from '../../users/schemas/user.schema.js';

export class UpdateUserStatusDto {
  @IsIn(USER_STATUSES, { message: `status must be one of: ${USER_STATUSES.join(', ')}` })
  status!: UserStatus;
}
