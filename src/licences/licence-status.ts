import type { LicenceCode, LicenceStatus } from '../../lib/api/licences.js';

export interface LicenceState {
  state: LicenceStatus;
  expiresAt: Date | null;
  graceUntil: Date | null;
  revokedAt: Date | null;
}

/**
 * Whether a licence is usable at `now`, and if not why: one rule for the apps' API, downloads and
 * the dashboard. An administrator's revocation wins over billing; a past-due subscription stays
 * valid until its grace ends; a paid period that ended (a missed webhook, say) expires on its own,
 * unless a grace period still runs.
 */
export function licenceCode(licence: LicenceState, now: Date): LicenceCode {
  if (licence.revokedAt || licence.state === 'revoked') return 'REVOKED';
  if (licence.state === 'suspended') return 'SUSPENDED';
  if (licence.state === 'expired') return 'EXPIRED';
  const inGrace = licence.graceUntil !== null && licence.graceUntil > now;
  if (licence.state === 'past_due') return licence.graceUntil === null || inGrace ? 'VALID' : 'EXPIRED';
  if (licence.expiresAt !== null && licence.expiresAt <= now && !inGrace) return 'EXPIRED';
  return 'VALID';
}

/** The end of the licence's validity as far as it is known now (null: none). */
export function validUntil(licence: LicenceState): Date | null {
  const ends = [licence.expiresAt, licence.state === 'past_due' || licence.graceUntil ? licence.graceUntil : null];
  if (licence.expiresAt === null && licence.state !== 'past_due') return null;
  const known = ends.filter((end): end is Date => end !== null);
  return known.length ? new Date(Math.max(...known.map((end) => end.getTime()))) : null;
}

export const CODE_DETAIL: Record<LicenceCode, string> = {
  VALID: 'The licence is valid on this device.',
  NOT_FOUND: 'No licence has this key. Check it for typos.',
  WRONG_PRODUCT: 'This key is for another product.',
  EXPIRED: 'The licence has expired.',
  SUSPENDED: 'The licence is suspended.',
  REVOKED: 'The licence has been revoked.',
  NO_SEATS_LEFT: 'Every seat of this licence is in use. Deactivate a device in your dashboard, or add seats.',
  NOT_ACTIVATED: 'This device is not activated for this licence.',
  DEACTIVATION_LIMIT: 'This licence has used up its deactivations for this month. Contact support to reset it.',
  DEACTIVATED: 'This device was deactivated and its seat is free.',
};
