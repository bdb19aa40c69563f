import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import type { LatestReleasesResponse } from '../../lib/api/releases.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { SignedIn } from '../auth/decorators/roles.decorator.js';
import { LatestReleasesQuery, ReleaseIdParams } from './dto/release.dto.js';
import { ReleasesService } from './releases.service.js';
import { sendRelease } from './send-release.js';

/** The site's releases: what is current (public, for the tool pages), and downloads for licence holders. */
@Controller('api/releases')
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Public()
  @Get('latest')
  @Header('Cache-Control', 'public, max-age=60')
  latest(@Query() query: LatestReleasesQuery): Promise<LatestReleasesResponse> {
    return this.releases.latest(query.product);
  }

  /** GET and HEAD (Express answers HEAD with the GET route). */
  @SignedIn()
  @Get(':id/download')
  async download(
    @CurrentUser() user: SessionUser,
    @Param() params: ReleaseIdParams,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await sendRelease(request, response, this.releases, await this.releases.authoriseUser(params.id, user.id));
  }
}
