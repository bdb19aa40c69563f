import { Body, Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import type { AdminLicenceList } from '../../lib/api/licences.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { GrantLicenceDto } from './dto/grant-licence.dto.js';
import { LicenceIdParams, LicenceUserParams } from './dto/licence.params.js';
import { LicencesService } from './licences.service.js';

/** Licences in the administration: see, grant, revoke, reset devices. Every change is audited. */
@Roles('admin')
@Controller('api/admin')
export class AdminLicencesController {
  constructor(private readonly licences: LicencesService) {}

  @Get('users/:userId/licences')
  @Header('Cache-Control', 'private, no-store')
  list(@Param() params: LicenceUserParams): Promise<AdminLicenceList> {
    return this.licences.listForUser(params.userId);
  }

  @Post('users/:userId/licences')
  grant(@CurrentUser() actor: SessionUser, @Param() params: LicenceUserParams, @Body() body: GrantLicenceDto): Promise<AdminLicenceList> {
    return this.licences.grant(actor, params.userId, body);
  }

  @Post('licences/:id/revoke')
  @HttpCode(200)
  revoke(@CurrentUser() actor: SessionUser, @Param() params: LicenceIdParams): Promise<AdminLicenceList> {
    return this.licences.revoke(actor, params.id);
  }

  @Post('licences/:id/activations/reset')
  @HttpCode(200)
  reset(@CurrentUser() actor: SessionUser, @Param() params: LicenceIdParams): Promise<AdminLicenceList> {
    return this.licences.resetActivations(actor, params.id);
  }
}
