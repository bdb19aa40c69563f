import { useEffect, useState } from 'react';
import { BUILD_MANIFEST_PATH, type BuildManifest, VERSION_CHECK_INTERVAL_MS } from '../../lib/client-constants.js';
import './VersionNotice.css';

/**
 * Checks the build manifest once an hour and whenever the tab becomes visible again; when a newer
 * build is live, offers a reload without interrupting what the user is doing.
 */
export function VersionNotice() {
  const [available, setAvailable] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const check = async () => {
      try {
        const response = await fetch(BUILD_MANIFEST_PATH, { cache: 'no-store' });
        if (!response.ok) return;
        const manifest = (await response.json()) as BuildManifest;
        if (!cancelled && manifest.id && manifest.id !== __BUILD_ID__) setAvailable(true);
      } catch {
        // offline or mid-deploy: try again at the next tick
      }
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    const timer = window.setInterval(check, VERSION_CHECK_INTERVAL_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  if (!available) return null;
  return (
    <div className="version-notice" role="status" data-testid="version-notice">
      <span>A new version is available</span>
      <span aria-hidden="true"> — </span>
      <button type="button" className="button button--small button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
      <button type="button" className="button button--small button--ghost" onClick={() => setAvailable(false)} aria-label="Dismiss">
        Later
      </button>
    </div>
  );
}
