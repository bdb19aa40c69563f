import type { RangeQuery } from '../analytics/range.js';
import type { AnalyticsDashboard } from '../api/analytics.js';
import type { AuthProviders, SessionUser } from '../api/auth.js';
import type { BillingStatus, OrderList, SubscriptionResponse } from '../api/billing.js';
import type { CatalogueResponse } from '../api/catalogue.js';
import type { OwnedLicenceList } from '../api/licences.js';
import type { AdminOverviewResponse } from '../api/overview.js';
import type { ColorMode } from '../client-constants.js';
import type { RouteRuleRedirect } from '../api/route-rules.js';
import type { PublicPrivacyPolicy, PublicSiteSettings, PublicSponsors, PublicTerms } from '../api/site-settings.js';

/**
 * What route loaders may ask for. The browser answers over HTTP; the server answers by calling the
 * domain services directly, so a first render never makes an HTTP round-trip to itself.
 */
export interface DataSource {
  me(): Promise<SessionUser | null>;
  routeRule(pathname: string, search: string): Promise<RouteRuleRedirect | null>;
  /** Sign-in methods besides e-mail and password (from configuration). */
  authProviders(): Promise<AuthProviders>;
  /** The active plans (`GET /api/catalogue`): the pricing the home and subscription pages show. */
  catalogue(): Promise<CatalogueResponse>;
  /** Whether Stripe is configured (`GET /api/billing/status`). */
  billingStatus(): Promise<BillingStatus>;
  /** The signed-in person's own data; loaders ask only on routes whose guard requires a session. */
  subscription(): Promise<SubscriptionResponse>;
  orders(): Promise<OrderList>;
  licences(): Promise<OwnedLicenceList>;
  /** The key figures of /admin (`GET /api/admin/overview`); refused unless the user is an admin. */
  adminOverview(): Promise<AdminOverviewResponse>;
  /** The dashboard of /admin/analytics for a range (`GET /api/admin/analytics`); refused unless the user is an admin. */
  adminAnalytics(range: RangeQuery): Promise<AnalyticsDashboard>;
  /** Site name, registration open or closed, the announcement unless this visitor dismissed it (`GET /api/site-settings`). */
  siteSettings(): Promise<PublicSiteSettings>;
  /** Tiers and sponsors of /sponsor (`GET /api/site-settings/sponsors`). */
  sponsors(): Promise<PublicSponsors>;
  /** The privacy policy rendered to HTML on the server (`GET /api/site-settings/privacy-policy`). */
  privacyPolicy(): Promise<PublicPrivacyPolicy>;
  /** The terms of service, placeholders filled and rendered to HTML on the server (`GET /api/site-settings/terms`). */
  terms(): Promise<PublicTerms>;
}

export interface ServerRenderInput {
  /** Path and query of the request, e.g. `/login?redirect=%2Fadmin`. */
  url: string;
  publicUrl: string;
  nonce: string;
  colorMode: ColorMode;
  data: DataSource;
}

export type ServerRenderResult =
  | { type: 'redirect'; status: number; location: string }
  | {
      type: 'page';
      status: number;
      /** `<title>`, meta, canonical, Open Graph and JSON-LD. */
      head: string;
      /** The markup of `<div id="root">`. */
      html: string;
      /** Inline scripts (dehydrated query state), already carrying the nonce. */
      scripts: string;
      /** Page modules of the matched routes (`public/HomePage`), for modulepreload links. */
      pageModules: string[];
      /** `data-theme` for `<html>`, or null for `system` (CSS media query decides). */
      theme: 'light' | 'dark' | null;
      /**
       * The error a loader failed with, when the page is the 500 screen because of it (never put in
       * the HTML): the server answers a database it could not reach with its 503 instead.
       */
      failure?: unknown;
    };

export interface ErrorScreenInput {
  status: number;
  path: string;
  publicUrl: string;
  colorMode: ColorMode;
}

export interface ServerEntry {
  render(input: ServerRenderInput): Promise<ServerRenderResult>;
  /** A bare error screen, for failures outside the router (the render itself failed). */
  renderErrorScreen(input: ErrorScreenInput): { status: number; head: string; html: string; theme: 'light' | 'dark' | null };
}

export const STATE_GLOBAL = '__HITSCOPE_STATE__';
