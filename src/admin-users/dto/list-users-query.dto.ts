import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ROLES, type Role } from '../../../lib/auth/session-user.js';
import { USER_STATUSES, type UserStatus } from '../../users/schemas/user.schema.js';

export const USER_SORT_FIELDS = ['createdAt', 'name', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `GET /api/admin/users` query. Absent values take the defaults; wrong ones are a 400 with field messages. */
export class ListUsersQueryDto {
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

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be 1 or more' })
  @Max(100_000, { message: 'page must be 100000 or less' })
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be a whole number' })
  @Min(1, { message: 'pageSize must be between 1 and 100' })
  @Max(100, { message: 'pageSize must be between 1 and 100' })
  pageSize: number = 20;
}
