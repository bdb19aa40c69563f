import { formatDate } from '../../../lib/format/date.js';
import type { AdminSigningKey } from '../../../lib/api/licences.js';

/** The site's one date format (lib/format/date.ts). */
export const adminDate = (iso: string) => formatDate(iso);

/** A kid is a 43-character thumbprint: its start is enough to tell keys apart on screen. */
export const shortKid = (kid: string) => `${kid.slice(0, 12)}…`;

export function keyState(key: AdminSigningKey): { label: string; tone: 'accent' | 'plain' | 'muted' } {
  if (key.current) return { label: 'Current', tone: 'accent' };
  return key.published ? { label: 'Retired, published', tone: 'plain' } : { label: 'Retired', tone: 'muted' };
}
