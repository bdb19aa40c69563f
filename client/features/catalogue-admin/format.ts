import type { PlanInterval } from '../../../lib/api/catalogue.js';

export function intervalLabel(interval: PlanInterval): string {
  return interval === 'lifetime' ? 'One-off' : interval === 'year' ? 'Yearly' : 'Monthly';
}
