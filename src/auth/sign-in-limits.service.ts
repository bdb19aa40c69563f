import { Injectable } from '@nestjs/common';
import type { RateLimitRule } from '../rate-limit/rate-limit.decorator.js';
import { RateLimitService, TooManyRequestsException } from '../rate-limit/rate-limit.service.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * Password sign-in limits (OWASP's authentication cheat sheet: limit per account and client
 * tightly, per account loosely, keep per-IP limits, and let known devices through), on top of the
 * per-IP limit of the endpoint itself (30 attempts per 15 minutes, `@RateLimit`):
 * - per account and client, 5 attempts per 15 minutes. The client is this browser when it has
 *   signed in to the account before (device cookie), its IP address otherwise;
 * - per account, from clients that have never signed in to it: escalating windows, 10 per 15
 *   minutes, 20 per hour, 50 per day. A stranger guessing the owner's password from many
 *   addresses gets 10 tries, then waits a quarter of an hour, then an hour, then a day.
 * A browser the account knows is held only by the first limit: ten wrong passwords from anywhere
 * never lock the owner out of a browser they have used before (before this, they did, for 15
 * minutes, and anyone could do it to anyone).
 *
 * Counts are reserved before the password is checked (exact under bursts: the k-th attempt claims
 * slot k), and a correct password gives its reservation back, so only failures use up the limits. The
 * limits are the same whether or not the address has an account: they tell nobody which exist.
 */
export const SIGN_IN_LIMITS = {
  perClient: { scope: 'account', limit: 5, windowSeconds: 15 * MINUTE },
  perAccountFromUnknownClients: [
    { scope: 'account', limit: 10, windowSeconds: 15 * MINUTE },
    { scope: 'account', limit: 20, windowSeconds: HOUR },
    { scope: 'account', limit: 50, windowSeconds: 24 * HOUR },
  ],
} satisfies { perClient: RateLimitRule; perAccountFromUnknownClients: RateLimitRule[] };

export interface SignInClient {
  /** The address as the account is looked up (normalised). */
  email: string;
  ip: string;
  /** Set when this browser holds a valid device entry for the account. */
  knownDevice: string | null;
}

interface Reserved {
  bucket: string;
  rule: RateLimitRule;
  subject: string;
  /** The hit's slot (RateLimitService#take), given back when the password is right. */
  claim: string | null;
}

@Injectable()
export class SignInLimitsService {
  constructor(private readonly limits: RateLimitService) {}

  /**
   * Takes one attempt from every limit that applies, or throws 429 (with the longest Retry-After
   * of the limits that refused). Answers the reservations, to give back when the password is right.
   */
  async reserve(client: SignInClient, now = Date.now()): Promise<Reserved[]> {
    const reserved: Reserved[] = [];
    const clientKey = client.knownDevice ? `device:${client.knownDevice}` : `ip:${client.ip}`;
    const wanted: Array<Omit<Reserved, 'claim'>> = [
      { bucket: 'signin-client', rule: SIGN_IN_LIMITS.perClient, subject: `${client.email}|${clientKey}` },
      ...(client.knownDevice
        ? []
        : SIGN_IN_LIMITS.perAccountFromUnknownClients.map((rule) => ({ bucket: 'signin-account', rule, subject: client.email }))),
    ];
    // All at once: their slot claims go to the database together (RateLimitService's batched inserts).
    const taken = await Promise.all(wanted.map((limit) => this.limits.take(limit.bucket, limit.rule, limit.subject, now)));
    let refusedFor = 0;
    wanted.forEach((limit, index) => {
      const { allowed, retryAfterSeconds, claim } = taken[index];
      reserved.push({ ...limit, claim });
      if (!allowed) refusedFor = Math.max(refusedFor, retryAfterSeconds);
    });
    // A refused attempt still counts (that is what makes the windows escalate for a persistent guesser).
    if (refusedFor > 0) throw new TooManyRequestsException(refusedFor);
    return reserved;
  }

  /** The password was right: the attempt does not count against anything. */
  async release(reserved: Reserved[]): Promise<void> {
    await this.limits.refundAll(reserved.map((limit) => limit.claim));
  }
}
