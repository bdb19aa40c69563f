import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import type { ToolUsageResponse } from '../../../lib/api/tool-usage.js';
import { Roles, SignedIn } from '../../auth/decorators/roles.decorator.js';
import { fieldError } from '../../common/validation.js';
import { RateLimit } from '../../rate-limit/rate-limit.decorator.js';
import { BROWSER_RUNS, usageDay } from '../../../lib/tools/tool-usage.js';
import { RecordToolRunDto, ToolUsageQueryDto } from './dto/tool-usage.dto.js';
import { ToolUsageService } from './tool-usage.service.js';

const DAY_MS = 24 * 3600 * 1000;
/** The longest range one usage query may ask for. */
export const TOOL_USAGE_MAX_DAYS = 366;
/** Finished browser analyses one user may report per hour (far above what a person produces). */
export const TOOL_RUN_REPORTS_PER_HOUR = 120;

@Controller('api')
export class ToolUsageController {
  constructor(private readonly usage: ToolUsageService) {}

  /**
   * What runs in the browser is reported here: each finished HAR or app-log analysis, and the GA4
   * workbench's live validation once per settled payload (client/features/ga4mp/hooks/useLiveRunReport.ts).
   */
  @SignedIn()
  @RateLimit('tool-usage', { scope: 'user', limit: TOOL_RUN_REPORTS_PER_HOUR, windowSeconds: 3600 })
  @Post('tools/usage')
  @HttpCode(204)
  async record(@Body() body: RecordToolRunDto): Promise<void> {
    await this.usage.record(body.tool, BROWSER_RUNS[body.tool]);
  }

  /** Daily runs per tool and action; the last 30 days unless a range is given. */
  @Roles('admin')
  @Get('admin/tool-usage')
  async list(@Query() query: ToolUsageQueryDto): Promise<ToolUsageResponse> {
    const to = query.to ?? usageDay(new Date());
    const from = query.from ?? usageDay(new Date(Date.parse(to) - 29 * DAY_MS));
    const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
    if (!Number.isFinite(days) || days < 1) {
      throw fieldError('from', 'from must not be after to');
    }
    if (days > TOOL_USAGE_MAX_DAYS) {
      throw fieldError('from', `the range must be ${TOOL_USAGE_MAX_DAYS} days or fewer`);
    }
    return { from, to, rows: await this.usage.between(from, to) };
  }
}
