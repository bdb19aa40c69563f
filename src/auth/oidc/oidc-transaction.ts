import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * What the callback needs to finish a sign-in that `start` began: kept in the browser, in a
 * short-lived httpOnly cookie, rather than in process memory, so any instance can take the
 * callback. The cookie also binds the flow to the browser that started it (the `state` check is
 * the CSRF protection of the callback).
 */
export interface OidcTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Same-site path to land on after signing in (already checked by safeRedirectPath). */
  redirect: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export const OIDC_TRANSACTION_COOKIE = 'hs_oidc';
export const OIDC_TRANSACTION_TTL_MS = 10 * 60 * 1000;

const keyFor = (secret: string) => Buffer.from(hkdfSync('sha256', secret, '', 'hitscope:oidc-transaction', 32));

/**
 * Sealed with AES-256-GCM rather than only signed: the PKCE code verifier is a secret that should
 * not be readable from the cookie, and the authentication tag makes any tampering fail to open.
 */
export function sealTransaction(transaction: OidcTransaction, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(transaction), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** Null for anything that is missing, tampered with, sealed with another secret, malformed or expired. */
export function openTransaction(sealed: string | undefined, secret: string, now = Date.now()): OidcTransaction | null {
  const parts = sealed?.split('.');
  if (!parts || parts.length !== 3 || sealed!.length > 2048) return null;
  try {
    const [iv, body, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== 12 || tag.length !== 16) return null;
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), iv);
    decipher.setAuthTag(tag);
    const parsed = JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as Partial<OidcTransaction>;
    const strings = [parsed.state, parsed.nonce, parsed.codeVerifier, parsed.redirect];
    if (!strings.every((value) => typeof value === 'string' && value.length > 0) || typeof parsed.expiresAt !== 'number') return null;
    return parsed.expiresAt > now ? (parsed as OidcTransaction) : null;
  } catch {
    return null;
  }
}
