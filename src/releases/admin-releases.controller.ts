import { Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import type { AdminRelease, AdminReleaseList } from '../../lib/api/releases.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { AdminReleasesQuery, ReleaseIdParams } from './dto/release.dto.js';
import { ReleasesService } from './releases.service.js';

/** Releases in the administration: upload (multipart, streamed), list, yank and unyank. Every change is audited. */
@Roles('admin')
@Controller('api/admin/releases')
export class AdminReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  /** The body is read by the service as it streams to storage (see release-upload.ts), not by a pipe. */
  @Post()
  upload(@CurrentUser() actor: SessionUser, @Req() request: Request): Promise<AdminRelease> {
    return this.releases.publish(actor, request);
  }

  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(@Query() query: AdminReleasesQuery): Promise<AdminReleaseList> {
    return this.releases.list(query.product);
  }

  @Post(':id/yank')
  @HttpCode(200)
  yank(@CurrentUser() actor: SessionUser, @Param() params: ReleaseIdParams): Promise<AdminRelease> {
    return this.releases.setYanked(actor, params.id, true);
  }

  @Post(':id/unyank')
  @HttpCode(200)
  unyank(@CurrentUser() actor: SessionUser, @Param() params: ReleaseIdParams): Promise<AdminRelease> {
    return this.releases.setYanked(actor, params.id, false);
  }
}
