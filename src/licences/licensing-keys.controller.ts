import { Controller, Get, Header } from '@nestjs/common';
import type { LicensingJwks } from '../../lib/api/licences.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { SigningKeysService } from './signing-keys.service.js';

/**
 * The public keys that verify leases (JWKS). The apps pin them too; this is how they learn a new
 * key after a rotation. Cacheable for a few minutes (a rotation publishes the new key before any
 * lease is signed with it only on the instance that rotated, so short), and anybody may read it.
 */
@Controller('.well-known')
export class LicensingKeysController {
  constructor(private readonly keys: SigningKeysService) {}

  @Public()
  @Get('hitscope-licensing-keys.json')
  @Header('Cache-Control', 'public, max-age=300, stale-if-error=86400')
  @Header('Access-Control-Allow-Origin', '*')
  jwks(): Promise<LicensingJwks> {
    return this.keys.jwks();
  }
}
