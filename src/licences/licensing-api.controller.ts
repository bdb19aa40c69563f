import { Body, Controller, Header, HttpCode, Ip, Post } from '@nestjs/common';
import type { LicenceApiResponse } from '../../lib/api/licences.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { SkipCsrf } from '../auth/decorators/skip-csrf.decorator.js';
import { FastLane } from '../fast-lane/fast-lane.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { LicenceApiRequestDto } from './dto/licence-api.dto.js';
import { LicensingApiService } from './licensing-api.service.js';

/**
 * Per client address, every key together (a further limit per key and address is in the service).
 * Buffered: counted without a database round trip, so the apps' calls stay fast.
 */
const PER_IP = { scope: 'ip', limit: 300, windowSeconds: 600, buffered: true } as const;

/**
 * The apps' and the extension's licensing API (`/api/v1/licenses/*`, the spelling the apps ship
 * with). Public and without CSRF on purpose: it reads no cookie, the licence key in the body is the
 * credential, so a cross-site request can do nothing the caller could not do directly. Answered in
 * the fast lane (src/fast-lane/fast-lane.ts): validate is the call every app start makes.
 */
@Controller('api/v1/licenses')
export class LicensingApiController {
  constructor(private readonly api: LicensingApiService) {}

  @FastLane()
  @Public()
  @SkipCsrf()
  @RateLimit('licensing', PER_IP)
  @Post('activate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  activate(@Body() body: LicenceApiRequestDto, @Ip() ip: string): Promise<LicenceApiResponse> {
    return this.api.handle('activate', body, ip);
  }

  @FastLane()
  @Public()
  @SkipCsrf()
  @RateLimit('licensing', PER_IP)
  @Post('validate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  validate(@Body() body: LicenceApiRequestDto, @Ip() ip: string): Promise<LicenceApiResponse> {
    return this.api.handle('validate', body, ip);
  }

  @FastLane()
  @Public()
  @SkipCsrf()
  @RateLimit('licensing', PER_IP)
  @Post('deactivate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  deactivate(@Body() body: LicenceApiRequestDto, @Ip() ip: string): Promise<LicenceApiResponse> {
    return this.api.handle('deactivate', body, ip);
  }
}
