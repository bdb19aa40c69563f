/** Where Stripe delivers its events (the endpoint configured in Stripe's dashboard: README, Configuration). */
export const STRIPE_WEBHOOK_PATH = '/api/billing/webhook';

/**
 * The most of an event's body read: its JSON is read raw (the signature covers the exact bytes), and
 * a large invoice can pass the 100 KiB other endpoints take. The full pipeline's raw parser
 * (installRequestHandling) and the fast lane read up to this.
 */
export const STRIPE_WEBHOOK_LIMIT_BYTES = 1024 * 1024;
