import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AdminCampaign } from '../../../../lib/api/newsletter-campaigns.js';
import { campaignKey, campaignsKey, eventsUrl } from '../campaigns-api.js';

const POLL_MS = 2000;

export type ProgressChannel = 'live' | 'polling' | 'idle';

/**
 * While a campaign sends (or is paused), its numbers come live from the server-sent events stream
 * into the query cache; when the browser has no EventSource or the stream fails, the campaign is
 * polled every 2 s instead. The stream closes when the campaign settles or the view goes away.
 */
export function useCampaignProgress(campaign: AdminCampaign | undefined): ProgressChannel {
  const client = useQueryClient();
  const [channel, setChannel] = useState<ProgressChannel>('idle');
  const id = campaign?.id;
  const open = campaign?.state === 'sending' || campaign?.state === 'paused';

  useEffect(() => {
    if (!id || !open) return;
    let poller: number | null = null;
    const poll = () => {
      setChannel('polling');
      poller ??= window.setInterval(() => void client.invalidateQueries({ queryKey: campaignKey(id), exact: true }), POLL_MS);
    };
    if (typeof EventSource === 'undefined') {
      poll();
      return () => {
        if (poller !== null) window.clearInterval(poller);
      };
    }
    const source = new EventSource(eventsUrl(id));
    source.addEventListener('open', () => setChannel('live'));
    source.addEventListener('progress', (event) => {
      const next = JSON.parse((event as MessageEvent<string>).data) as AdminCampaign;
      client.setQueryData(campaignKey(id), next);
    });
    source.addEventListener('done', () => {
      source.close();
      setChannel('idle');
      void client.invalidateQueries({ queryKey: campaignsKey, exact: true });
    });
    source.addEventListener('error', () => {
      // The stream broke (network, server restart, session expired): fall back to polling.
      source.close();
      poll();
    });
    return () => {
      source.close();
      if (poller !== null) window.clearInterval(poller);
    };
  }, [client, id, open]);

  return open ? channel : 'idle';
}
