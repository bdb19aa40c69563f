import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretsService } from '../secrets.service.js';

export const CSRF_COOKIE = 'hs_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Signed double-submit tokens. The httpOnly cookie holds a random nonce; the token handed to the
 * page is `nonce.signature`. A write must send the token in a header: a cross-site form cannot set
 * headers, cannot read the token, and cannot forge a signature for a nonce it planted itself.
 */
@Injectable()
export class CsrfService {
  constructor(private readonly secrets: SecretsService) {}

  newNonce(): string {
    return randomBytes(18).toString('base64url');
  }

  tokenFor(nonce: string): string {
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
