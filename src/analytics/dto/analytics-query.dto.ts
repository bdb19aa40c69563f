import { IsIn, IsOptional, Matches } from 'class-validator';
import { ANALYTICS_PRESETS, type AnalyticsPreset, DAY_PATTERN } from '../../../lib/analytics/range.js';
import type { AnalyticsQuery } from '../../../lib/api/analytics.js';

/** A preset (`today`, `7d`, `30d`, `90d`) or a custom `from`..`to`; neither means the last 30 days. */
export class AnalyticsQueryDto implements AnalyticsQuery {
  @IsOptional()
  @IsIn(ANALYTICS_PRESETS, { message: `preset must be one of: ${ANALYTICS_PRESETS.join(', ')}` })
  preset?: AnalyticsPreset;

  @IsOptional()
  @Matches(DAY_PATTERN, { message: 'from must be a date as YYYY-MM-DD' })
  from?: string;

  @IsOptional()
  @Matches(DAY_PATTERN, { message: 'to must be a date as YYYY-MM-DD' })
  to?: string;
}
