import { Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import type { AdminOverviewResponse, MrrOverviewResponse, MrrSnapshotRunResponse } from '../../lib/api/overview.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { AdminOverviewService } from './admin-overview.service.js';
import { MrrSnapshotService } from './mrr-snapshot.service.js';

@Roles('admin')
@Controller('api/admin/overview')
export class AdminOverviewController {
  constructor(
    private readonly overview: AdminOverviewService,
    private readonly mrr: MrrSnapshotService,
  ) {}

  /** The key figures of /admin (computed at most every 30 s per instance). */
  @Get()
  @Header('Cache-Control', 'private, no-store')
  getOverview(): Promise<AdminOverviewResponse> {
    return this.overview.overview();
  }

  @Get('mrr')
  @Header('Cache-Control', 'private, no-store')
  getMrr(): Promise<MrrOverviewResponse> {
    return this.mrr.overview();
  }

  /** Takes today's snapshot now if no instance has yet (the hourly check would within the hour). */
  @Post('mrr/snapshot')
  @HttpCode(200)
  snapshot(): Promise<MrrSnapshotRunResponse> {
    return this.mrr.runDaily();
  }
}
