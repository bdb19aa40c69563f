import { Body, Controller, Get, Header, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { parseCidr } from '../../lib/analytics/cidr.js';
import type { DayRange } from '../../lib/analytics/range.js';
import type { AnalyticsDashboard, AnalyticsRealtime, AnalyticsSettings } from '../../lib/api/analytics.js';
import type { SessionUser } from '../../lib/api/auth.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { fieldError } from '../common/validation.js';
import { AnalyticsDashboardService } from './analytics-dashboard.service.js';
import { analyticsCsv } from './analytics-csv.js';
import { AnalyticsSettingsService } from './analytics-settings.service.js';
import { AnalyticsQueryDto } from './dto/analytics-query.dto.js';
import { AnalyticsSettingsDto } from './dto/analytics-settings.dto.js';

@Roles('admin')
@Controller('api/admin/analytics')
export class AnalyticsController {
  constructor(
    private readonly dashboards: AnalyticsDashboardService,
    private readonly settings: AnalyticsSettingsService,
  ) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  dashboard(@Query() query: AnalyticsQueryDto): Promise<AnalyticsDashboard> {
    return this.dashboards.dashboard(this.rangeOf(query));
  }

  @Get('realtime')
  @Header('Cache-Control', 'private, no-store')
  realtime(): Promise<AnalyticsRealtime> {
    return this.dashboards.realtime();
  }

  /** The range's daily series and every dimension table, as CSV (cells neutralised by lib/csv). */
  @Get('export.csv')
  async csv(@Query() query: AnalyticsQueryDto, @Res() response: Response): Promise<void> {
    const range = this.rangeOf(query);
    const report = await this.dashboards.report(range);
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="analytics-${range.from}-to-${range.to}.csv"`);
    response.setHeader('Cache-Control', 'private, no-store');
    response.send(analyticsCsv(report));
  }

  @Get('settings')
  @Header('Cache-Control', 'private, no-store')
  getSettings(): Promise<AnalyticsSettings> {
    return this.settings.read();
  }

  @Put('settings')
  putSettings(@CurrentUser() user: SessionUser, @Body() body: AnalyticsSettingsDto): Promise<AnalyticsSettings> {
    const ignoreIps = body.ignoreIps.map((entry) => entry.trim()).filter(Boolean);
    const badIp = ignoreIps.find((entry) => !parseCidr(entry));
    if (badIp !== undefined) throw fieldError('ignoreIps', `"${badIp}" is not an IP address or CIDR range`);
    const ignorePaths = body.ignorePaths.map((entry) => entry.trim()).filter(Boolean);
    const badPath = ignorePaths.find((entry) => !entry.startsWith('/'));
    if (badPath !== undefined) throw fieldError('ignorePaths', `"${badPath}" must start with /`);
    return this.settings.update(user, { ...body, ignoreIps, ignorePaths });
  }

  private rangeOf(query: AnalyticsQueryDto): DayRange {
    return this.dashboards.rangeOf(query);
  }
}
