/**
 * The time the webhook inbox runs on (leases): injectable, so tests can let a waiting event's lease
 * run out without waiting a minute. Optional; the system clock otherwise.
 */
export const WEBHOOK_CLOCK = Symbol('WEBHOOK_CLOCK');

export { type Clock, systemClock } from '../analytics/clock.js';
