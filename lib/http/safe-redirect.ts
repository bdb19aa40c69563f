/**
 * Returns `target` when it is a same-site relative path (`/dashboard?x=1`), otherwise `null`.
 *
 * Refused: absolute URLs, protocol-relative `//evil.example`, backslash tricks (`/\evil.example`,
 * which browsers normalise to `//`), control characters (CRLF header injection) and anything that
 * a URL parser would resolve to another origin.
 */
export function safeRedirectPath(target: string | null | undefined): string | null {
  if (!target || target.length > 2048) return null;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return null;
  const base = 'http://same-site.invalid';
  let resolved: URL;
  try {
    resolved = new URL(target, base);
  } catch {
    return null;
  }
  if (resolved.origin !== base) return null;
  return resolved.pathname + resolved.search + resolved.hash;
}
