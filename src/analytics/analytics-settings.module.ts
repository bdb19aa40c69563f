import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditModule } from '../audit/audit.module.js';
import { AnalyticsSettingsService } from './analytics-settings.service.js';
import { ANALYTICS_CLOCK, systemClock } from './clock.js';
import { AnalyticsSettingsDoc, AnalyticsSettingsSchema } from './schemas/analytics-settings.schema.js';

/**
 * The analytics options and the analytics clock, on their own so that the site settings (the
 * privacy policy states the live retention) can read them without importing the whole analytics
 * module, which depends on auth, which depends on the site settings.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: AnalyticsSettingsDoc.name, schema: AnalyticsSettingsSchema }]), AuditModule],
  providers: [{ provide: ANALYTICS_CLOCK, useValue: systemClock }, AnalyticsSettingsService],
  exports: [ANALYTICS_CLOCK, AnalyticsSettingsService],
})
export class AnalyticsSettingsModule {}
