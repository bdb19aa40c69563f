import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard.js';

export interface RateLimitRule {
  /**
   * `ip`: the client address (X-Forwarded-For only as far as TRUST_PROXY allows); `account`: the
   * e-mail in the body; `user`: the signed-in user (use on endpoints behind `@SignedIn()`).
   */
  scope: 'ip' | 'account' | 'user';
  limit: number;
  windowSeconds: number;
  /**
   * Counted in memory and added to the shared counter once a second (RateLimitService.hitBuffered):
   * no database round trip per request, for hot public endpoints where a limit a second late is harmless.
   */
  buffered?: boolean;
}

export interface RateLimitPolicy {
  bucket: string;
  rules: RateLimitRule[];
}

export const RATE_LIMIT_KEY = 'hitscope:rateLimit';

/** Limits an endpoint per IP and/or per account; over the limit it answers 429 with Retry-After. */
export const RateLimit = (bucket: string, ...rules: RateLimitRule[]) =>
  applyDecorators(SetMetadata(RATE_LIMIT_KEY, { bucket, rules } satisfies RateLimitPolicy), UseGuards(RateLimitGuard));
