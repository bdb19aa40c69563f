import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DismissAnnouncementRequest, PublicSiteSettings } from '../../../lib/api/site-settings.js';
import { api } from '../../app/api-client.js';
import { SITE_SETTINGS_KEY } from '../../app/queries.js';

/**
 * Hides the banner at once; the server remembers the dismissal (a cookie for this browser, the
 * account for a signed-in person). Should that fail, the banner is simply back on the next page.
 */
export function useDismissAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: string) =>
      api<void>('/api/site-settings/announcement/dismiss', { method: 'POST', body: { version } satisfies DismissAnnouncementRequest }),
    onMutate: (version) => {
      queryClient.setQueryData<PublicSiteSettings>(SITE_SETTINGS_KEY, (current) =>
        current && current.announcement?.version === version ? { ...current, announcement: null } : current,
      );
    },
  });
}
