import { Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import type { MrrOverviewResponse, MrrSnapshotRunResponse } from '../../lib/api/overview.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { MrrSnapshotService } from './mrr-snapshot.service.js';

@Roles('admin')
@Controller('api/admin/overview')
export class AdminOverviewController {
  constructor(private readonly mrr: MrrSnapshotService) {}

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
