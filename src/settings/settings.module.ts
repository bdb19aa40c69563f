import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AnalyticsSettingsModule } from '../analytics/analytics-settings.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { RouteRulesController } from './route-rules.controller.js';
import { RouteRulesService } from './route-rules.service.js';
import { RouteRuleSet, RouteRuleSetSchema } from './schemas/route-rules.schema.js';
import {
  AnnouncementDismissal,
  AnnouncementDismissalSchema,
  SiteSettingsRecord,
  SiteSettingsSchema,
} from './schemas/site-settings.schema.js';
import { SiteSettingsAccountData } from './site-settings.account-data.js';
import { AdminSiteSettingsController, SiteSettingsController } from './site-settings.controller.js';
import { SiteSettingsService } from './site-settings.service.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: RouteRuleSet.name, schema: RouteRuleSetSchema },
      { name: SiteSettingsRecord.name, schema: SiteSettingsSchema },
      { name: AnnouncementDismissal.name, schema: AnnouncementDismissalSchema },
    ]),
    AuditModule,
    AnalyticsSettingsModule,
    // The plans the legal documents state (lib/legal/placeholders.ts).
    CatalogueModule,
  ],
  controllers: [RouteRulesController, AdminSiteSettingsController, SiteSettingsController],
  providers: [RouteRulesService, SiteSettingsService, SiteSettingsAccountData],
  exports: [RouteRulesService, SiteSettingsService],
})
export class SettingsModule {}
