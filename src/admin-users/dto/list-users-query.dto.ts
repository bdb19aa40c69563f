import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  type AdminUserListQuery,
  SORT_ORDERS,
  type SortOrder,
  USER_SEARCH_MAX_LENGTH,
  USER_SORT_FIELDS,
  USER_STATUSES,
  type UserSortField,
  type UserStatus,
} from '../../../lib/api/admin-users.js';
import { ROLES, type Role } from '../../../lib/api/auth.js';
import { PageQueryDto } from '../../common/page-query.dto.js';

/** `GET /api/admin/users` query. Absent values take the defaults; wrong ones are a 400 with field messages. */
export class ListUsersQueryDto extends PageQueryDto implements AdminUserListQuery {
  @IsOptional()
  @IsString({ message: 'q must be a single text value' })
  @MaxLength(USER_SEARCH_MAX_LENGTH, { message: `q must be at most ${USER_SEARCH_MAX_LENGTH} characters` })
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
