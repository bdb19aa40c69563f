import { Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import type { AdminSigningKeyList, RotateSigningKeyResponse } from '../../lib/api/licences.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { SigningKeysService } from './signing-keys.service.js';

/**
 * The lease signing keys in the administration: the list (kids and dates, never key material) and
 * the rotation. A rotated-out key stays in the JWKS until every lease it signed is over, grace
 * included, so rotating never locks an offline device out.
 */
@Roles('admin')
@Controller('api/admin/licensing/signing-keys')
export class AdminSigningKeysController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(): Promise<AdminSigningKeyList> {
    return this.keys.list();
  }

  @Post('rotate')
  @HttpCode(200)
  rotate(@CurrentUser() actor: SessionUser): Promise<RotateSigningKeyResponse> {
    return this.keys.rotateBy(actor);
  }
}
