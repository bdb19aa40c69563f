import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ROLES, type Role } from '../../../lib/api/auth.js';
import { PageQueryDto } from '../../common/page-query.dto.js';
import { USER_STATUSES, type UserStatus } from '../../users/schemas/user.schema.js';

export const USER_SORT_FIELDS = ['createdAt', 'name', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `GET /api/admin/users` query. Absent values take the defaults; wrong ones are a 400 with field messages. */
export class ListUsersQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString({ message: 'q must be a single text value' })
  @MaxLength(100, { message: 'q must be at most 100 characters' })
  q?: string;

  @IsOptional()
  @IsIn(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` })
  role?: Role;

  @IsOptional()
  @IsIn(USER_STATUSES, { message: `status must be one of: ${USER_STATUSES.join(', ')}` })
  status?: UserStatus;

  @IsOptional()
  @IsIn(USER_SORT_FIELDS, { message: `sort must be one of: ${USER_SORT_FIELDS.join(', ')}` })
  sort: UserSortField = 'createdAt';

  /** Defaults to newest first for createdAt, A to Z for name and e-mail. */
  @IsOptional()
  @IsIn(SORT_ORDERS, { message: 'order must be asc or desc' })
  order?: SortOrder;
}
