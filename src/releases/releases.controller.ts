import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import type { LatestReleasesResponse } from '../../lib/api/releases.js';
import { OptionalSession, SessionUserIfAny } from '../auth/decorators/optional-session.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { LatestReleasesQuery, ReleaseIdParams } from './dto/release.dto.js';
import { ReleasesService } from './releases.service.js';
import { sendRelease } from './send-release.js';

/** The site's releases: what is current (public, for the tool pages), and downloads for licence holders (for anybody when free). */
@Controller('api/releases')
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Public()
  @Get('latest')
  @Header('Cache-Control', 'public, max-age=60')
  latest(@Query() query: LatestReleasesQuery): Promise<LatestReleasesResponse> {
    return this.releases.latest(query.product);
  }

  /**
   * GET and HEAD (Express answers HEAD with the GET route). The session is read but not required: a
   * product whose downloads an administrator made free downloads for anybody; any other needs a
   * signed-in licence holder (the service answers 401 or 403).
   */
  @OptionalSession()
  @Get(':id/download')
  async download(
    @SessionUserIfAny() user: SessionUser | null,
    @Param() params: ReleaseIdParams,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await sendRelease(request, response, this.releases, await this.releases.authoriseUser(params.id, user?.id ?? null));
  }
}
