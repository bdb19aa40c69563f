import type { CataloguePlan } from '../../../lib/api/catalogue.js';
import type { LicenceStatus, OwnedLicence } from '../../../lib/api/licences.js';
import { formatDate } from '../../../lib/format/date.js';
import { PRICING } from '../../../lib/pricing.js';

/*
 * Dates are the site's one format (lib/format/date.ts: British English, UTC), never the browser's
 * locale or time zone: the server renders this page and the browser hydrates it, and the same
 * renewal reads the same here as on the subscription and orders pages.
 */
export { formatDate, formatDateTime, formatRelative } from '../../../lib/format/date.js';

/** "1 device", "2 devices". */
export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const STATUS_LABELS: Record<LicenceStatus, string> = {
  active: 'Active',
  past_due: 'Past due',
  suspended: 'Suspended',
  expired: 'Expired',
  revoked: 'Revoked',
};

/** What the status badge says: a past-due licence keeps working until its grace ends, so say until when. */
export function statusText(licence: Pick<OwnedLicence, 'status' | 'graceUntil'>): string {
  if (licence.status === 'past_due' && licence.graceUntil) return `Past due (grace until ${formatDate(licence.graceUntil)})`;
  return STATUS_LABELS[licence.status];
}

/**
 * The plan's public name ("Team"): the catalogue's for a bought licence (`team-monthly`), the price
 * list's for a granted one (`team`), or its id for a plan neither knows (or before the catalogue is in).
 */
export function planName(planId: string, catalogue: readonly Pick<CataloguePlan, 'id' | 'name'>[] = []): string {
  return catalogue.find((plan) => plan.id === planId)?.name ?? PRICING.find((plan) => plan.id === planId)?.name ?? planId;
}

/**
 * The licence's end, worded for how it ends: renews (a running subscription), payment due (past due,
 * in its grace), expires, ended, or never. Null for a revoked licence: its end date no longer applies.
 */
export function termText(licence: Pick<OwnedLicence, 'status' | 'expiresAt' | 'source'>): string | null {
  if (licence.status === 'revoked') return null;
  if (!licence.expiresAt) return 'No end date';
  const date = formatDate(licence.expiresAt);
  if (licence.status === 'past_due') return `Payment due since ${date}`;
  if (licence.status === 'expired' || new Date(licence.expiresAt).getTime() <= Date.now()) return `Ended ${date}`;
  if (licence.source === 'subscription' && licence.status === 'active') return `Renews ${date}`;
  return `Expires ${date}`;
}

/** A device that did not send its name is still listed, under a name people understand. */
export const deviceName = (device: { name: string }) => device.name.trim() || 'Unnamed device';
