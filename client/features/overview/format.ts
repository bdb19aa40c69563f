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
 * A fixed locale and UTC, because the server renders this and the browser hydrates it: "24 Nov, 14:05 UTC".
 * Relative times ("3 minutes ago") would differ between the two renders.
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

/** `2026-11-24` → "24 Nov". */
export const formatDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
