/**
 * Money as the API carries it: integer minor units and a lower-case ISO 4217 code (`2900, 'eur'`).
 * One fixed locale, because the server renders these strings and the browser hydrates them: both
 * must format alike whatever language the visitor's browser prefers.
 */
const LOCALE = 'en-GB';

const formats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string, whole = false): Intl.NumberFormat {
  const key = `${currency}:${whole}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency: currency.toUpperCase(),
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

/** How many minor units a currency's major unit has, as decimal digits (2 for EUR, USD, GBP). */
export function minorDigits(currency: string): number {
  return moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * `2900, 'eur'` → "€29.00", the exact amount (orders, receipts, admin tables); with `short`, a price
 * without zero cents: "€29", and "€29.50" when there are cents (pricing cards).
 */
export function formatMoney(amountMinor: number, currency: string, options: { short?: boolean } = {}): string {
  const factor = 10 ** minorDigits(currency);
  return moneyFormat(currency, Boolean(options.short) && amountMinor % factor === 0).format(amountMinor / factor);
}

/** `2950, 'eur'` → "29.50": the amount as a price field shows it. */
export function minorToDecimal(amountMinor: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(amountMinor);
  const text = String(amountMinor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * What a person typed ("29", "29.5", "29.00", "1,234.50") to integer minor units, by string parsing
 * (no float maths: 0.1 + 0.2 never happens); null when it is not a price in that currency.
 */
export function decimalToMinor(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return null;
  const whole = match[1].replaceAll(',', '');
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(`${whole}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) ? minor : null;
}
