import { useCallback, useEffect, useState } from 'react';
import type { LicenceState } from '../../../../../lib/licensing/client.js';
import { createLicenceClient } from '../../shared/licence.js';

export interface LicenceView {
  state: LicenceState | null;
  /** Asks the site now (the options page's "Check now"). */
  refresh: () => Promise<void>;
}

/**
 * The licence as the stored lease says (offline, at once), then confirmed with the site when a day
 * has passed since it last answered (the lease lasts 7 days, its grace 7 more): opening the panel is
 * when the licence is used, so it is when it is checked; no alarm permission is needed for it.
 */
/** `siteUrl` undefined: the settings are still loading; null: no site set (the free tier). */
export function useLicence(siteUrl: string | null | undefined): LicenceView {
  const [state, setState] = useState<LicenceState | null>(null);

  const evaluate = useCallback(
    async (ask: 'if-due' | 'now') => {
      if (siteUrl === undefined) return;
      if (!siteUrl) {
        setState({ tier: 'free', reason: 'none' });
        return;
      }
      const client = await createLicenceClient(siteUrl);
      setState(await client.state());
      if (ask === 'now' || (await client.refreshDue())) setState(await client.validate());
    },
    [siteUrl],
  );

  useEffect(() => {
    void evaluate('if-due');
    const changed = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
      if (area === 'local' && changes.licence) void evaluate('if-due');
    };
    chrome.storage.onChanged.addListener(changed);
    return () => chrome.storage.onChanged.removeListener(changed);
  }, [evaluate]);

  return { state, refresh: () => evaluate('now') };
}
