import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminDetector } from './admin-detector.js';
import { AnalyticsController } from './analytics.controller.js';
import { AnalyticsDashboardService } from './analytics-dashboard.service.js';
import { AnalyticsMaintenanceService } from './analytics-maintenance.service.js';
import { AnalyticsSettingsModule } from './analytics-settings.module.js';
import { AnalyticsIngestService } from './ingest.service.js';
import { AnalyticsSaltsService } from './salts.service.js';
import { AnalyticsSalt, AnalyticsSaltSchema } from './schemas/analytics-salt.schema.js';
import {
  AnalyticsCounter,
  AnalyticsCounterSchema,
  AnalyticsDaySummary,
  AnalyticsDaySummarySchema,
} from './schemas/analytics-counter.schema.js';
import { VisitorDay, VisitorDaySchema } from './schemas/visitor-day.schema.js';

/**
 * First-party, cookie-less analytics: the collector (`POST /api/e`, answered before Express by
 * collector.ts), the ingest buffers, the daily salts, the day close and sweeps, the admin dashboard
 * and settings. The overview reads today's figures through AnalyticsDashboardService.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: AnalyticsSalt.name, schema: AnalyticsSaltSchema },
      { name: VisitorDay.name, schema: VisitorDaySchema },
      { name: AnalyticsCounter.name, schema: AnalyticsCounterSchema },
      { name: AnalyticsDaySummary.name, schema: AnalyticsDaySummarySchema },
    ]),
    AuditModule,
    AnalyticsSettingsModule,
    AuthModule,
    UsersModule,
    BillingModule,
  ],
  controllers: [AnalyticsController],
  providers: [AnalyticsSaltsService, AnalyticsIngestService, AnalyticsDashboardService, AnalyticsMaintenanceService, AdminDetector],
  exports: [AnalyticsSettingsModule, AnalyticsDashboardService, AnalyticsIngestService, AnalyticsMaintenanceService, AdminDetector],
})
export class AnalyticsModule {}
