import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretsService } from '../secrets.service.js';

export const CSRF_COOKIE = 'hs_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** 18 random bytes in base64url. */
const NONCE_PATTERN = /^[A-Za-z0-9_-]{24}$/;

/**
 * A fresh nonce for the CSRF cookie. Sign-in and sign-out replace it, so a token read before either
 * (by a script on a shared computer, a fixated cookie) is worth nothing after it.
 */
export const newCsrfNonce = () => randomBytes(18).toString('base64url');

/**
 * Signed double-submit tokens. The httpOnly cookie holds a random nonce; the token handed to the
 * page is `nonce.signature`. A write must send the token in a header: a cross-site form cannot set
 * headers, cannot read the token, and cannot forge a signature for a nonce it planted itself.
 */
@Injectable()
export class CsrfService {
  constructor(private readonly secrets: SecretsService) {}

  /**
   * A token for the browser's nonce cookie. The nonce is kept while it is well formed (tabs open
   * at once keep valid tokens); otherwise a new one is made, which the caller must set as the cookie.
   */
  issue(cookieNonce: string | undefined): { token: string; newNonce: string | null } {
    const reusable = cookieNonce !== undefined && NONCE_PATTERN.test(cookieNonce);
    const nonce = reusable ? cookieNonce : this.newNonce();
    return { token: this.tokenFor(nonce), newNonce: reusable ? null : nonce };
  }

  newNonce(): string {
    return newCsrfNonce();
  }

  private tokenFor(nonce: string): string {
    return `${nonce}.${this.sign(nonce)}`;
  }

  isValid(cookieNonce: string | undefined, headerToken: string | undefined): boolean {
    if (!cookieNonce || !headerToken) return false;
    const [nonce, signature] = headerToken.split('.');
    if (!nonce || !signature || nonce !== cookieNonce) return false;
    const expected = Buffer.from(this.sign(nonce));
    const actual = Buffer.from(signature);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private sign(nonce: string): string {
    return createHmac('sha256', this.secrets.authSecret).update(`csrf:${nonce}`).digest('base64url');
  }
}
