import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  SiteSettingsRequests,
  SiteSettingsResponses,
  SiteSettingsSection,
  SponsorLogoUploadResponse,
} from '../../../lib/api/site-settings.js';
import { SPONSOR_LOGO_FIELD } from '../../../lib/api/site-settings.js';
import type { LegalValues } from '../../../lib/legal/placeholders.js';
import { api } from '../../app/api-client.js';
import { SITE_SETTINGS_KEY } from '../../app/queries.js';

const pathOf = (section: SiteSettingsSection) => `/api/admin/site-settings/${section}`;

export const siteSettingsSectionQuery = <S extends SiteSettingsSection>(section: S) =>
  queryOptions({
    queryKey: ['admin', 'site-settings', section] as const,
    queryFn: ({ signal }) => api<SiteSettingsResponses[S]>(pathOf(section), { signal }),
  });

/** What the legal documents' placeholders stand for now (settings and catalogue): the editors' previews. */
export const legalValuesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'site-settings', 'legal-values'] as const,
    queryFn: ({ signal }) => api<LegalValues>('/api/admin/site-settings/legal-values', { signal }),
  });

/**
 * Saves one section; the answer is the section as stored. The public settings every page shows
 * (`['site-settings', …]`: the name in the header, the banner, /sponsor, /privacy-policy) are asked
 * again, so this very admin sees the change at once.
 */
export function useSaveSiteSettingsSection<S extends SiteSettingsSection>(section: S) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: SiteSettingsRequests[S]) => api<SiteSettingsResponses[S]>(pathOf(section), { method: 'PUT', body: value }),
    onSuccess: (saved) => {
      queryClient.setQueryData(siteSettingsSectionQuery(section).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: SITE_SETTINGS_KEY });
      // The site name and the contact addresses are placeholders of the legal documents.
      void queryClient.invalidateQueries({ queryKey: legalValuesQuery().queryKey });
    },
  });
}

export function useUploadSponsorLogo() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append(SPONSOR_LOGO_FIELD, file);
      return api<SponsorLogoUploadResponse>('/api/admin/site-settings/sponsor-logos', { method: 'POST', body });
    },
  });
}
