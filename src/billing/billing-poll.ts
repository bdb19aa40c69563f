/**
 * How often the webhook worker looks for due events; 0 turns the billing background jobs off (the
 * worker, the daily reconcile and the catalogue sync at start-up; tests run them themselves).
 * In a file of its own so that every billing service can read it without importing another.
 */
export const BILLING_POLL_MS = Symbol('BILLING_POLL_MS');
