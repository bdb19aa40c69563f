import Stripe from 'stripe';
import type { StripeConfig } from '../config/app-config.js';

/**
 * The Stripe API version this code is written against. Pinned: an upgrade (fields move between
 * versions, e.g. basil moved `current_period_end` onto subscription items) is a change made on
 * purpose, with the tests, never by updating the package. Asserted at start-up.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

export const STRIPE_CLIENT = Symbol('STRIPE_CLIENT');

export function createStripeClient(config: StripeConfig): Stripe {
  if (Stripe.API_VERSION !== STRIPE_API_VERSION) {
    throw new Error(`The stripe package speaks API ${Stripe.API_VERSION}, this code ${STRIPE_API_VERSION}: upgrade on purpose`);
  }
  return new Stripe(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    // Retries carry the same idempotency key, so a retried create never makes two objects.
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(config.apiBase ? { host: config.apiBase.host, port: config.apiBase.port, protocol: config.apiBase.protocol } : {}),
  });
}

/**
 * When Stripe made an answer, in seconds, by Stripe's own clock (the response's `Date` header): the
 * events Stripe sends about the same change carry a `created` from that clock too, so the answer
 * and the events are ordered without trusting this server's clock. Falls back to now.
 */
export function stripeAnswerTime(answer: { lastResponse?: { headers?: Record<string, string | string[] | undefined> } }): number {
  const header = answer.lastResponse?.headers?.date;
  const parsed = typeof header === 'string' ? Date.parse(header) : Number.NaN;
  return Math.floor((Number.isFinite(parsed) ? parsed : Date.now()) / 1000);
}
