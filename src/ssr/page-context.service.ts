import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import { COLOR_MODE_COOKIE, type ColorMode, parseColorMode } from '../../lib/client-constants.js';
import type { DataSource, ErrorScreenInput, ServerRenderInput } from '../../lib/ssr/render-contract.js';
import { ANALYTICS_PRESETS, type AnalyticsPreset } from '../../lib/analytics/range.js';
import { AnalyticsDashboardService } from '../analytics/analytics-dashboard.service.js';
import { readCookie } from '../auth/auth-cookies.js';
import { authProvidersOf } from '../auth/oidc/auth-providers.js';
import { PageSessionService } from '../auth/page-session.service.js';
import { BillingService } from '../billing/billing.service.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { LicencesService } from '../licences/licences.service.js';
import { AdminOverviewService } from '../overview/admin-overview.service.js';
import { RouteRulesService } from '../settings/route-rules.service.js';
import { SiteSettingsService } from '../settings/site-settings.service.js';
import { ANNOUNCEMENT_DISMISSED_COOKIE } from '../../lib/api/site-settings.js';

/** What an error screen is drawn from: never the session or the database, which may be what failed. */
export interface ErrorScreenContext extends Omit<ErrorScreenInput, 'status'> {
  url: string;
  nonce: string;
}

/** What the server entry needs to know about a page request, gathered in one place. */
@Injectable()
export class PageContextService {
  constructor(
    private readonly pageSessions: PageSessionService,
    private readonly routeRules: RouteRulesService,
    private readonly catalogue: CatalogueService,
    private readonly billing: BillingService,
    private readonly licences: LicencesService,
    private readonly overview: AdminOverviewService,
    private readonly analytics: AnalyticsDashboardService,
    private readonly siteSettings: SiteSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Resolves the session (refreshing it when needed, which may set cookies on `response`). */
  async forPage(request: Request, response: Response): Promise<ServerRenderInput> {
    const user = await this.pageSessions.resolve(request, response);
    return {
      url: request.originalUrl,
      publicUrl: this.config.publicUrl,
      nonce: cspNonceOf(response),
      colorMode: colorModeOf(request),
      data: this.dataSource(user, readCookie(request, ANNOUNCEMENT_DISMISSED_COOKIE)),
    };
  }

  forErrorScreen(request: Request, response: Response): ErrorScreenContext {
    return {
      url: request.originalUrl,
      path: request.path,
      publicUrl: this.config.publicUrl,
      nonce: cspNonceOf(response),
      colorMode: colorModeOf(request),
    };
  }

  /** Loaders read data through the services directly: no HTTP round-trip to ourselves. */
  private dataSource(user: SessionUser | null, dismissedCookie: string | undefined): DataSource {
    return {
      me: async () => user,
      routeRule: (pathname, search) => this.routeRules.resolve(pathname, search),
      authProviders: async () => authProvidersOf(this.config),
      catalogue: () => this.catalogue.catalogue(),
      billingStatus: async () => this.billing.status(),
      subscription: () => this.billing.subscription(signedIn(user).id),
      orders: () => this.billing.listOrders(signedIn(user).id),
      licences: () => this.licences.listOwned(signedIn(user).id),
      // The page guard has let only admins this far; the data is refused here too, as the API does.
      adminOverview: async () => {
        if (user?.role !== 'admin') throw new Error('The admin overview is for admins');
        return this.overview.overview();
      },
      adminAnalytics: async (range) => {
        if (user?.role !== 'admin') throw new Error('Analytics are for admins');
        // The page's query, validated as the API does (a bad one fails here; the page then asks the API and shows why).
        const query = 'preset' in range ? { preset: range.preset as AnalyticsPreset } : { from: range.from, to: range.to };
        if (query.preset !== undefined && !ANALYTICS_PRESETS.includes(query.preset)) throw new Error('Unknown analytics preset');
        return this.analytics.dashboard(this.analytics.rangeOf(query));
      },
      siteSettings: () => this.siteSettings.publicSettings({ user, dismissedCookie }),
      sponsors: () => this.siteSettings.publicSponsors(),
      privacyPolicy: () => this.siteSettings.publicPrivacyPolicy(),
      terms: () => this.siteSettings.publicTerms(),
    };
  }
}

/** Loaders ask for a person's data only on routes whose guard requires a session. */
function signedIn(user: SessionUser | null): SessionUser {
  if (!user) throw new Error('No session: a loader asked for personal data on a public route');
  return user;
}

/** The cookie lets the server render the chosen theme with no flash. */
function colorModeOf(request: Request): ColorMode {
  return parseColorMode(readCookie(request, COLOR_MODE_COOKIE));
}

/** Set for every request by the first middleware in app.factory.ts; the CSP names it. */
function cspNonceOf(response: Response): string {
  return (response.locals.cspNonce as string | undefined) ?? '';
}
