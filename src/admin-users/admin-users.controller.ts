import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type {
  AdminUserDetail,
  AdminUserList,
  RevokeSessionsResponse,
  UserRoleChangeResponse,
  UserStatusChangeResponse,
} from '../../lib/api/admin-users.js';
import type { SessionUser } from '../../lib/api/auth.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { AdminUsersService } from './admin-users.service.js';
import { ListUsersQueryDto } from './dto/list-users-query.dto.js';
import { UpdateUserRoleDto } from './dto/update-user-role.dto.js';
import { UpdateUserStatusDto } from './dto/update-user-status.dto.js';
import { UserIdParams } from './dto/user-id.params.js';

@Roles('admin')
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(private readonly adminUsers: AdminUsersService) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(@Query() query: ListUsersQueryDto): Promise<AdminUserList> {
    return this.adminUsers.list(query);
  }

  @Get(':id')
  @Header('Cache-Control', 'private, no-store')
  get(@Param() params: UserIdParams): Promise<AdminUserDetail> {
    return this.adminUsers.get(params.id);
  }

  @Patch(':id/role')
  changeRole(
    @CurrentUser() actor: SessionUser,
    @Param() params: UserIdParams,
    @Body() body: UpdateUserRoleDto,
  ): Promise<UserRoleChangeResponse> {
    return this.adminUsers.changeRole(actor, params.id, body.role);
  }

  @Patch(':id/status')
  changeStatus(
    @CurrentUser() actor: SessionUser,
    @Param() params: UserIdParams,
    @Body() body: UpdateUserStatusDto,
  ): Promise<UserStatusChangeResponse> {
    return this.adminUsers.changeStatus(actor, params.id, body.status);
  }

  @Post(':id/sessions/revoke')
  @HttpCode(200)
  revokeSessions(@CurrentUser() actor: SessionUser, @Param() params: UserIdParams): Promise<RevokeSessionsResponse> {
    return this.adminUsers.revokeSessions(actor, params.id);
  }
}
