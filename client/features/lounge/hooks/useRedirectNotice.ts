import { type RefObject, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { readRedirectNotice, REDIRECT_NOTICE_PARAM, type RedirectNotice } from '../../../../lib/routes/route-middleware.js';

/**
 * The reason a guard sent the user here (`?notice=`, see lib/routes/route-middleware.ts): shown
 * until dismissed, and taken out of the address at once, so a reload, a bookmark or a shared link
 * does not repeat it. Each redirect shows it again, even after an earlier one was dismissed.
 * Dismissing it gives the focus to `focusAfterDismiss` (the notice and its button are gone).
 */
export function useRedirectNotice(focusAfterDismiss: RefObject<HTMLElement | null>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const fromUrl = readRedirectNotice(searchParams);
  const [notice, setNotice] = useState<RedirectNotice | null>(fromUrl);
  const [seenAt, setSeenAt] = useState(fromUrl ? location.key : null);
  if (fromUrl && seenAt !== location.key) {
    setSeenAt(location.key);
    setNotice(fromUrl);
  }

  useEffect(() => {
    if (!fromUrl) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete(REDIRECT_NOTICE_PARAM);
    setSearchParams(rest, { replace: true, preventScrollReset: true });
  }, [fromUrl, searchParams, setSearchParams]);

  return {
    notice,
    dismiss: () => {
      setNotice(null);
      requestAnimationFrame(() => focusAfterDismiss.current?.focus());
    },
  };
}
