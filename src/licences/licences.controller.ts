import { Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import type { OwnedLicence, OwnedLicenceList } from '../../lib/api/licences.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { SignedIn } from '../auth/decorators/roles.decorator.js';
import { ActivationParams } from './dto/licence.params.js';
import { LicencesService } from './licences.service.js';

/** The signed-in person's licences (dashboard). */
@Controller('api/licences')
export class LicencesController {
  constructor(private readonly licences: LicencesService) {}

  @SignedIn()
  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(@CurrentUser() user: SessionUser): Promise<OwnedLicenceList> {
    return this.licences.listOwned(user.id);
  }

  @SignedIn()
  @Post(':id/activations/:activationId/deactivate')
  @HttpCode(200)
  deactivate(@CurrentUser() user: SessionUser, @Param() params: ActivationParams): Promise<OwnedLicence> {
    return this.licences.deactivateOwn(user.id, params.id, params.activationId);
  }
}
