import { IsIn, IsOptional, Matches } from 'class-validator';
import type { ToolRunReport, ToolUsageQuery } from '../../../../lib/api/tool-usage.js';
import { BROWSER_TOOLS, type BrowserToolId } from '../../../../lib/tools/tool-usage.js';

/** A run that happened in the browser. */
export class RecordToolRunDto implements ToolRunReport {
  @IsIn(BROWSER_TOOLS, { message: `tool must be one of: ${BROWSER_TOOLS.join(', ')}` })
  tool!: BrowserToolId;
}

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class ToolUsageQueryDto implements ToolUsageQuery {
  @IsOptional()
  @Matches(DAY, { message: 'from must be a date as YYYY-MM-DD' })
  from?: string;

  @IsOptional()
  @Matches(DAY, { message: 'to must be a date as YYYY-MM-DD' })
  to?: string;
}
