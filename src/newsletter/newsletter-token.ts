import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signed newsletter links, stateless: `payload.signature`, where the payload names the purpose, the
 * address and (for confirmations) the expiry, and the signature is an HMAC-SHA-256 under a key
 * derived from AUTH_SECRET for this one use (HKDF, info `hitscope:newsletter-token`), so a token of
 * another feature never verifies here, and a confirm token never unsubscribes or the reverse.
 *
 * Nothing is stored per link: an unsubscribe link in a mail sent years ago still works, and the
 * mailbox provider's one-click POST (RFC 8058) needs nothing but the URL.
 */
export type NewsletterTokenPurpose = 'confirm' | 'unsubscribe';

export interface NewsletterTokenClaims {
  purpose: NewsletterTokenPurpose;
  email: string;
  /** Epoch milliseconds after which the token is refused; null: never expires (unsubscribe links). */
  expiresAt: number | null;
}

export const newsletterKey = (authSecret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', authSecret, '', 'hitscope:newsletter-token', 32));

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(`newsletter:${payload}`).digest('base64url');

export function signNewsletterToken(key: Buffer, claims: NewsletterTokenClaims): string {
  const payload = Buffer.from(JSON.stringify({ p: claims.purpose, e: claims.email, x: claims.expiresAt })).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The claims when the signature holds, the purpose matches and the token has not expired; null otherwise. */
export function verifyNewsletterToken(
  key: Buffer,
  token: unknown,
  purpose: NewsletterTokenPurpose,
  now = Date.now(),
): NewsletterTokenClaims | null {
  if (typeof token !== 'string' || token.length > 2000) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(key, payload));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  try {
    const { p, e, x } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; e?: unknown; x?: unknown };
    if (p !== purpose || typeof e !== 'string') return null;
    if (x !== null && (typeof x !== 'number' || x <= now)) return null;
    return { purpose, email: e, expiresAt: x };
  } catch {
    return null;
  }
}

/** A keyed hash of the client address for the consent proof: provable later, never the address itself. */
export function hashIp(key: Buffer, ip: string | undefined): string | null {
  if (!ip) return null;
  return createHmac('sha256', key).update(`ip:${ip}`).digest('base64url').slice(0, 22);
}
