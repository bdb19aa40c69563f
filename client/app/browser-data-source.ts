import { rangeSearch } from '../../lib/analytics/range.js';
import type { AnalyticsDashboard } from '../../lib/api/analytics.js';
import type { AuthProviders, SessionUser } from '../../lib/api/auth.js';
import type { BillingStatus, OrderList, SubscriptionResponse } from '../../lib/api/billing.js';
import type { CatalogueResponse } from '../../lib/api/catalogue.js';
import type { OwnedLicenceList } from '../../lib/api/licences.js';
import type { AdminOverviewResponse } from '../../lib/api/overview.js';
import type { RouteRuleCheckResponse } from '../../lib/api/route-rules.js';
import type { PublicPrivacyPolicy, PublicSiteSettings, PublicSponsors, PublicTerms } from '../../lib/api/site-settings.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import { api, ApiError } from './api-client.js';

export const browserDataSource: DataSource = {
  async me() {
    try {
      return await api<SessionUser>('/api/auth/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  async routeRule(pathname, search) {
    const answer = await api<RouteRuleCheckResponse>(`/api/route-rules?path=${encodeURIComponent(pathname + search)}`);
    return answer.redirect;
  },
  authProviders() {
    return api<AuthProviders>('/api/auth/providers');
  },
  catalogue() {
    return api<CatalogueResponse>('/api/catalogue');
  },
  billingStatus() {
    return api<BillingStatus>('/api/billing/status');
  },
  subscription() {
    return api<SubscriptionResponse>('/api/billing/subscription');
  },
  orders() {
    return api<OrderList>('/api/billing/orders');
  },
  licences() {
    return api<OwnedLicenceList>('/api/licences');
  },
  adminOverview() {
    return api<AdminOverviewResponse>('/api/admin/overview');
  },
  adminAnalytics(range) {
    return api<AnalyticsDashboard>(`/api/admin/analytics?${rangeSearch(range)}`);
  },
  siteSettings() {
    return api<PublicSiteSettings>('/api/site-settings');
  },
  sponsors() {
    return api<PublicSponsors>('/api/site-settings/sponsors');
  },
  privacyPolicy() {
    return api<PublicPrivacyPolicy>('/api/site-settings/privacy-policy');
  },
  terms() {
    return api<PublicTerms>('/api/site-settings/terms');
  },
};
