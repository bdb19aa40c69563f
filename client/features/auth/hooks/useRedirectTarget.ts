import { useSearchParams } from 'react-router';
import { safeRedirectPath } from '../../../../lib/http/safe-redirect.js';

/** `?redirect=` of the sign-in screens, when it is a same-site path (anything else is ignored). */
export function useRedirectTarget(): string | null {
  const [params] = useSearchParams();
  return safeRedirectPath(params.get('redirect'));
}

/** A link to the other sign-in screen that keeps the redirect target. */
export function withRedirect(path: string, redirect: string | null): string {
  return redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;
}
