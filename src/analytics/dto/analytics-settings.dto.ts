import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { ANALYTICS_LIMITS, type AnalyticsSettings } from '../../../lib/api/analytics.js';

export class AnalyticsSettingsDto implements AnalyticsSettings {
  @IsArray()
  @ArrayMaxSize(ANALYTICS_LIMITS.ignoreEntries, { message: `ignoreIps may hold at most ${ANALYTICS_LIMITS.ignoreEntries} entries` })
  @IsString({ each: true })
  @MaxLength(64, { each: true, message: 'each ignoreIps entry must be at most 64 characters' })
  ignoreIps!: string[];

  @IsArray()
  @ArrayMaxSize(ANALYTICS_LIMITS.ignoreEntries, { message: `ignorePaths may hold at most ${ANALYTICS_LIMITS.ignoreEntries} entries` })
  @IsString({ each: true })
  @MaxLength(200, { each: true, message: 'each ignorePaths entry must be at most 200 characters' })
  ignorePaths!: string[];

  @IsInt({ message: 'retentionDays must be a whole number of days' })
  @Min(ANALYTICS_LIMITS.minRetentionDays, { message: `retentionDays must be at least ${ANALYTICS_LIMITS.minRetentionDays}` })
  @Max(ANALYTICS_LIMITS.maxRetentionDays, { message: `retentionDays must be at most ${ANALYTICS_LIMITS.maxRetentionDays}` })
  retentionDays!: number;

  @IsBoolean()
  respectPrivacySignals!: boolean;

  @IsBoolean()
  countAdmins!: boolean;
}
