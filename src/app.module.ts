import { type DynamicModule, Module } from '@nestjs/common';
import { AdminUsersModule } from './admin-users/admin-users.module.js';
import { AnalyticsModule } from './analytics/analytics.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BillingModule } from './billing/billing.module.js';
import { CatalogueModule } from './catalogue/catalogue.module.js';
import { OidcModule } from './auth/oidc/oidc.module.js';
import { OverviewModule } from './overview/overview.module.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { LicencesModule } from './licences/licences.module.js';
import { MailModule } from './mail/mail.module.js';
import { NewsletterModule } from './newsletter/newsletter.module.js';
import { ProfileModule } from './profile/profile.module.js';
import { StorageModule } from './storage/storage.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { ReleasesModule } from './releases/releases.module.js';
import { SettingsModule } from './settings/settings.module.js';
import type { PageRenderer } from './ssr/page-renderer.js';
import { SsrModule } from './ssr/ssr.module.js';
import { TOOL_MODULES } from './tools/tools.module.js';
import { UsersModule } from './users/users.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  mongodbUri: string;
  renderer: PageRenderer;
}

@Module({})
export class AppModule {
  static forRoot({ config, mongodbUri, renderer }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(mongodbUri, { slowCommandMs: config.databaseSlowMs }),
        RateLimitModule,
        MailModule,
        StorageModule,
        UsersModule,
        AuthModule,
        OidcModule,
        SettingsModule,
        HealthModule,
        AuditModule,
        AdminUsersModule,
        ProfileModule,
        NewsletterModule,
        LicencesModule,
        CatalogueModule,
        BillingModule,
        AnalyticsModule,
        OverviewModule,
        ReleasesModule,
        ...TOOL_MODULES,
        // Last, always: it owns the catch-all page route.
        SsrModule.forRoot(renderer),
      ],
    };
  }
}
