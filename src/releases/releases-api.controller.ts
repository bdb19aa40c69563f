import { Controller, Get, Header, Headers, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { UpdateCheckResponse } from '../../lib/api/releases.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { ReleaseIdParams, UpdateCheckQuery } from './dto/release.dto.js';
import { ReleasesService } from './releases.service.js';
import { sendRelease } from './send-release.js';

const PER_IP = { scope: 'ip', limit: 300, windowSeconds: 600 } as const;

/** `Authorization: License <key>`; anything else is no key. */
export function licenceKeyOf(header: string | undefined): string | null {
  const match = /^License +([A-Za-z0-9 -]{1,64})$/i.exec(header?.trim() ?? '');
  return match ? match[1] : null;
}

/**
 * The apps' update channel (`/api/v1/releases/*`, beside the licensing API). Public and cookie-less:
 * the licence key in the Authorization header is the credential, checked by the licences module.
 */
@Controller('api/v1/releases')
export class ReleasesApiController {
  constructor(private readonly releases: ReleasesService) {}

  @Public()
  @RateLimit('release-updates', PER_IP)
  @Get('latest')
  @Header('Cache-Control', 'no-store')
  latest(@Query() query: UpdateCheckQuery, @Headers('authorization') authorization?: string): Promise<UpdateCheckResponse> {
    return this.releases.updateCheck(query, authorization === undefined ? null : (licenceKeyOf(authorization) ?? ''));
  }

  @Public()
  @RateLimit('release-updates', PER_IP)
  @Get(':id/download')
  async download(@Param() params: ReleaseIdParams, @Req() request: Request, @Res() response: Response): Promise<void> {
    const release = await this.releases.authoriseKey(params.id, licenceKeyOf(request.headers.authorization));
    await sendRelease(request, response, this.releases, release);
  }
}
