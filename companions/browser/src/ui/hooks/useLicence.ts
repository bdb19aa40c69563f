import { useCallback, useEffect, useState } from 'react';
import type { LicenceState } from '../../../../../lib/licensing/client.js';
import { createLicenceClient } from '../../shared/licence.js';

export interface LicenceView {
  state: LicenceState | null;
  /** Asks the site now (the options page's "Check now"). */
  refresh: () => Promise<void>;
}

const FREE: LicenceState = { tier: 'free', reason: 'none' };

/**
 * The licence as the stored lease says (offline, at once), then confirmed with the site when a day
 * has passed since it last answered (the lease lasts 7 days, its grace 7 more): opening the panel is
 * when the licence is used, so it is when it is checked; no alarm permission is needed for it.
 * `siteUrl` undefined: the settings are still loading; '' or null: no site set (the free tier).
 */
export function useLicence(siteUrl: string | null | undefined): LicenceView {
  const [state, setState] = useState<LicenceState | null>(null);

  const evaluate = useCallback(
    async (ask: 'if-due' | 'now', isCurrent: () => boolean = () => true) => {
      if (siteUrl === undefined) return;
      const show = (next: LicenceState) => {
        if (isCurrent()) setState(next);
      };
      if (!siteUrl) return show(FREE);
      const client = await createLicenceClient(siteUrl);
      show(await client.state());
      if (ask === 'now' || (await client.refreshDue())) show(await client.validate());
    },
    [siteUrl],
  );

  useEffect(() => {
    let current = true;
    const isCurrent = () => current;
    const check = () => {
      void Promise.resolve().then(() => evaluate('if-due', isCurrent));
    };
    check();
    // Another page (the options) activated, refreshed or removed the licence.
    const changed = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
      if (area === 'local' && changes.licence) check();
    };
    chrome.storage.onChanged.addListener(changed);
    return () => {
      current = false;
      chrome.storage.onChanged.removeListener(changed);
    };
  }, [evaluate]);

  return { state, refresh: () => evaluate('now') };
}
