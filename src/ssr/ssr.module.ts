import { type DynamicModule, Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { ERROR_PAGE_RENDERER } from '../common/error-page-renderer.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { LicencesModule } from '../licences/licences.module.js';
import { OverviewModule } from '../overview/overview.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { BuildManifestController } from './build-manifest.controller.js';
import { PageCache } from './page-cache.js';
import { PageContextService } from './page-context.service.js';
import { PageDocumentService } from './page-document.service.js';
import { PAGE_RENDERER, type PageRenderer } from './page-renderer.js';
import { SeoController } from './seo.controller.js';
import { SeoService } from './seo.service.js';
import { SsrController } from './ssr.controller.js';

@Module({})
export class SsrModule {
  static forRoot(renderer: PageRenderer): DynamicModule {
    return {
      module: SsrModule,
      imports: [AuthModule, SettingsModule, CatalogueModule, BillingModule, LicencesModule, OverviewModule, AnalyticsModule],
      // SsrController is last: its catch-all must be registered after every other GET route.
      controllers: [SeoController, BuildManifestController, SsrController],
      providers: [
        { provide: PAGE_RENDERER, useValue: renderer },
        PageContextService,
        PageDocumentService,
        SeoService,
        {
          provide: PageCache,
          // Not in development: Vite changes the code under a running server.
          useFactory: (config: AppConfig) =>
            new PageCache({ maxBytes: config.nodeEnv === 'development' ? 0 : config.pageCacheMaxBytes, gzip: config.compression }),
          inject: [APP_CONFIG],
        },
        // The exception filter (common/) draws the 404/500 screens through this.
        { provide: ERROR_PAGE_RENDERER, useExisting: PageDocumentService },
      ],
      exports: [ERROR_PAGE_RENDERER, PageCache],
    };
  }
}
