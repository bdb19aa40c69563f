import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import type { PublicSiteSettings } from '../../lib/api/site-settings.js';
import { PRODUCT } from '../../lib/product.js';
import { meQuery, siteSettingsQuery } from './queries.js';

export const DataSourceContext = createContext<DataSource | null>(null);

export function useDataSource(): DataSource {
  const data = useContext(DataSourceContext);
  if (!data) throw new Error('useDataSource outside <AppProviders>');
  return data;
}

/** The signed-in user, or null. Prefetched by every route loader, so it is there on first render. */
export function useMe() {
  return useQuery(meQuery(useDataSource())).data ?? null;
}

const FALLBACK_SITE_SETTINGS: PublicSiteSettings = {
  siteName: PRODUCT.name,
  registrationOpen: true,
  announcement: null,
  respectPrivacySignals: true,
};

/**
 * The public site settings (site name, registration, announcement). Prefetched by every route loader
 * and dehydrated with the page, so the server's markup and the first client render agree; should
 * they ever be missing, the defaults keep the page usable.
 */
export function useSiteSettings(): PublicSiteSettings {
  return useQuery(siteSettingsQuery(useDataSource())).data ?? FALLBACK_SITE_SETTINGS;
}
