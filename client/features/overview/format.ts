import { formatMoney } from '../../../lib/money.js';

const COUNT = new Intl.NumberFormat('en-GB');

export const formatCount = (value: number) => COUNT.format(value);

/** `+€41.50`, `−€9.00` (a real minus sign), `€0.00`: the sign is text, never only a colour. */
export function formatSignedMoney(amountMinor: number, currency: string): string {
  const amount = formatMoney(Math.abs(amountMinor), currency);
  if (amountMinor > 0) return `+${amount}`;
  if (amountMinor < 0) return `\u2212${amount}`;
  return amount;
}

/**
 * The site's one date format (lib/format/date.ts: British English, UTC), because the server renders
 * this and the browser hydrates it: "24 Nov 2026, 14:05 UTC", and `2026-11-24` → "24 Nov". Relative
 * times ("3 minutes ago") would differ between the two renders.
 */
export { formatDateTime, formatDay } from '../../../lib/format/date.js';
