import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminCampaign,
  AdminCampaignList,
  CampaignActionAnswer,
  CampaignInput,
  CampaignPreview,
  NewsletterSettings,
  NewsletterSettingsAnswer,
} from '../../../lib/api/newsletter-campaigns.js';
import type { MessageAnswer } from '../../../lib/api/newsletter.js';
import { api } from '../../app/api-client.js';

const BASE = '/api/admin/newsletter/campaigns';

export const campaignsKey = ['admin', 'newsletter', 'campaigns'] as const;
export const campaignKey = (id: string) => [...campaignsKey, id] as const;

export const campaignsQuery = () =>
  queryOptions({
    queryKey: campaignsKey,
    queryFn: ({ signal }) => api<AdminCampaignList>(BASE, { signal }),
  });

export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: campaignKey(id),
    queryFn: ({ signal }) => api<AdminCampaign>(`${BASE}/${encodeURIComponent(id)}`, { signal }),
  });

export const newsletterSettingsKey = ['admin', 'newsletter', 'settings'] as const;

export const newsletterSettingsQuery = () =>
  queryOptions({
    queryKey: newsletterSettingsKey,
    queryFn: ({ signal }) => api<NewsletterSettingsAnswer>('/api/admin/newsletter/settings', { signal }),
  });

export const failedCsvHref = (id: string) => `${BASE}/${encodeURIComponent(id)}/failed.csv`;
export const eventsUrl = (id: string) => `${BASE}/${encodeURIComponent(id)}/events`;

/** Keeps the list and the campaign's own entry in step with an answer that carries the campaign. */
function useStoreCampaign() {
  const client = useQueryClient();
  return (campaign: AdminCampaign) => {
    client.setQueryData(campaignKey(campaign.id), campaign);
    void client.invalidateQueries({ queryKey: campaignsKey, exact: true });
  };
}

export function useSaveCampaign() {
  const store = useStoreCampaign();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: CampaignInput }) =>
      id
        ? api<AdminCampaign>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PUT', body: input })
        : api<AdminCampaign>(BASE, { method: 'POST', body: input }),
    onSuccess: store,
  });
}

export function useDeleteCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: campaignKey(id) });
      void client.invalidateQueries({ queryKey: campaignsKey, exact: true });
    },
  });
}

export function usePreviewCampaign() {
  return useMutation({
    mutationFn: (input: CampaignInput) => api<CampaignPreview>(`${BASE}/preview`, { method: 'POST', body: input }),
  });
}

export function useTestSend() {
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to: string }) =>
      api<MessageAnswer>(`${BASE}/${encodeURIComponent(id)}/test`, { method: 'POST', body: to ? { to } : {} }),
  });
}

export type CampaignAction = 'send' | 'pause' | 'resume' | 'cancel' | 'retry-failed';

export function useCampaignAction() {
  const store = useStoreCampaign();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: CampaignAction }) =>
      api<CampaignActionAnswer>(`${BASE}/${encodeURIComponent(id)}/${action}`, { method: 'POST' }),
    onSuccess: (answer) => store(answer.campaign),
  });
}

export function useSaveNewsletterSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: NewsletterSettings) =>
      api<NewsletterSettingsAnswer>('/api/admin/newsletter/settings', { method: 'PUT', body: settings }),
    onSuccess: (answer) => client.setQueryData(newsletterSettingsKey, answer),
  });
}
