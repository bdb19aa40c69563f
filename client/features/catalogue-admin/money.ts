import type { Currency, PlanInterval } from '../../../lib/api/catalogue.js';

/* A fixed locale: the server renders these strings and the browser hydrates them. */
const LOCALE = 'en-GB';

const formats = new Map<Currency, Intl.NumberFormat>();

function moneyFormat(currency: Currency): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: currency.toUpperCase() });
    formats.set(currency, format);
  }
  return format;
}

/** How many minor units a currency's major unit has, as decimal digits (2 for EUR, USD, GBP). */
export function minorDigits(currency: Currency): number {
  return moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/** `2900, 'eur'` → "€29.00": the exact amount, as an admin needs to read it. */
export function formatMinor(amountMinor: number, currency: Currency): string {
  return moneyFormat(currency).format(amountMinor / 10 ** minorDigits(currency));
}

/** `2950, 'eur'` → "29.50": the amount as the price field shows it. */
export function minorToDecimal(amountMinor: number, currency: Currency): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(amountMinor);
  const text = String(amountMinor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * What the admin typed ("29", "29.5", "29.00", "1,234.50") to integer minor units, by string
 * parsing (no float maths: 0.1 + 0.2 never happens); null when it is not a price in that currency.
 */
export function decimalToMinor(text: string, currency: Currency): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return null;
  const whole = match[1].replaceAll(',', '');
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(`${whole}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) ? minor : null;
}

export function intervalLabel(interval: PlanInterval): string {
  return interval === 'lifetime' ? 'One-off' : interval === 'year' ? 'Yearly' : 'Monthly';
}
