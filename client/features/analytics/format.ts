const COUNT = new Intl.NumberFormat('en-GB');
const PERCENT = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

export const formatCount = (value: number) => COUNT.format(value);
export const formatPercent = (value: number) => PERCENT.format(value);
export const formatDecimal = (value: number) => DECIMAL.format(value);

/** "24 Nov" in UTC (the server renders it too): the site's one date format. */
export { formatDay } from '../../../lib/format/date.js';

/** The change from the previous period as text ("+12%", "−3%", "new", "no change"): never only a colour. */
export function changeText(current: number, previous: number): { text: string; direction: 'up' | 'down' | 'flat' } {
  if (current === previous) return { text: 'no change', direction: 'flat' };
  if (previous === 0) return { text: 'new', direction: 'up' };
  const ratio = (current - previous) / previous;
  const text = `${ratio > 0 ? '+' : '\u2212'}${PERCENT.format(Math.abs(ratio))}`;
  return { text, direction: ratio > 0 ? 'up' : 'down' };
}
