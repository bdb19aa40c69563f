import { createContext, useContext } from 'react';
import { hashKey, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionUser } from '../../lib/api/auth.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import type { PublicSiteSettings } from '../../lib/api/site-settings.js';
import { PRODUCT } from '../../lib/product.js';
import { ME_KEY, meQuery, SITE_SETTINGS_KEY, siteSettingsQuery } from './queries.js';

export const DataSourceContext = createContext<DataSource | null>(null);

export function useDataSource(): DataSource {
  const data = useContext(DataSourceContext);
  if (!data) throw new Error('useDataSource outside <AppProviders>');
  return data;
}

/*
 * useMe and useSiteSettings answer only the data, and every route loader prefetches it. In the
 * browser they observe the query (useQuery), so a change re-renders whoever shows it. In the server
 * render, which subscribes to nothing, they read this request's query cache directly: the same data
 * useQuery would answer there, without building a query observer per call (about a dozen per page).
 * Which pair a bundle uses is fixed when it is built (import.meta.env.SSR).
 */
const ME_HASH = hashKey(ME_KEY);
const SITE_SETTINGS_HASH = hashKey(SITE_SETTINGS_KEY);

/**
 * The data a query holds, found by its precomputed hash: `getQueryData` would default the query's
 * options and hash its key again on every call.
 */
function cachedData<T>(client: QueryClient, hash: string): T | undefined {
  return client.getQueryCache().get(hash)?.state.data as T | undefined;
}

/** The site settings the loaders prefetched into `client`, for the server's document head. */
export function prefetchedSiteSettings(client: QueryClient): PublicSiteSettings | undefined {
  return cachedData<PublicSiteSettings>(client, SITE_SETTINGS_HASH);
}

function useCachedOnServer<T>(hash: string): T | undefined {
  return cachedData<T>(useQueryClient(), hash);
}

function useMeOnServer(): SessionUser | null {
  return useCachedOnServer<SessionUser | null>(ME_HASH) ?? null;
}

function useMeInBrowser(): SessionUser | null {
  return useQuery(meQuery(useDataSource())).data ?? null;
}

/** The signed-in user, or null. Prefetched by every route loader, so it is there on first render. */
export const useMe: () => SessionUser | null = import.meta.env.SSR ? useMeOnServer : useMeInBrowser;

const FALLBACK_SITE_SETTINGS: PublicSiteSettings = {
  siteName: PRODUCT.name,
  registrationOpen: true,
  announcement: null,
  respectPrivacySignals: true,
};

function useSiteSettingsOnServer(): PublicSiteSettings {
  return prefetchedSiteSettings(useQueryClient()) ?? FALLBACK_SITE_SETTINGS;
}

function useSiteSettingsInBrowser(): PublicSiteSettings {
  return useQuery(siteSettingsQuery(useDataSource())).data ?? FALLBACK_SITE_SETTINGS;
}

/**
 * The public site settings (site name, registration, announcement). Prefetched by every route loader
 * and dehydrated with the page, so the server's markup and the first client render agree; should
 * they ever be missing, the defaults keep the page usable.
 */
export const useSiteSettings: () => PublicSiteSettings = import.meta.env.SSR ? useSiteSettingsOnServer : useSiteSettingsInBrowser;
