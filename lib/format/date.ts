/**
 * The one way the site writes dates and times, on every page and in every admin screen: British
 * English and UTC, whatever the browser is set to. The server renders each page and the browser
 * hydrates the same markup, so a date formatted with the browser's locale or time zone reads
 * differently in the two renders (React's hydration error #418 in any browser set up unlike the
 * server) and the same renewal reads differently on two pages. Times say "UTC" so that nobody
 * reads them as local.
 *
 * Written out by hand rather than with Intl.DateTimeFormat: Node and the browser each bring their
 * own copy of the locale data, and two versions of it may abbreviate a month differently ("Sep" and
 * "Sept"); these functions give the same text everywhere. The text is what Intl gives for en-GB
 * with `dateStyle: 'medium'` in current locale data, so dates read as they did before.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

type DateInput = string | number | Date;
const toDate = (value: DateInput) => (value instanceof Date ? value : new Date(value));
const two = (value: number) => String(value).padStart(2, '0');

/** "24 Nov 2026". */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "24 Nov 2026, 14:05 UTC"; with `seconds`, "24 Nov 2026, 14:05:09 UTC". */
export function formatDateTime(value: DateInput, options: { seconds?: boolean } = {}): string {
  const date = toDate(value);
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}${options.seconds ? `:${two(date.getUTCSeconds())}` : ''}`;
  return `${formatDate(date)}, ${time} UTC`;
}

/** A calendar day (`2026-11-24`, as the analytics series key days) → "24 Nov", for chart axes and short lists. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

const UNITS: Array<[unit: string, seconds: number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * "5 minutes ago", "in 2 days", "yesterday", "just now". It depends on the moment it is rendered,
 * so the server's text and the browser's can differ by a minute: show it in an element with
 * `suppressHydrationWarning`, with the exact {@link formatDateTime} beside it (a `title`).
 */
export function formatRelative(value: DateInput, now: number = Date.now()): string {
  const seconds = (toDate(value).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) < size) continue;
    const count = Math.sign(seconds) * Math.round(Math.abs(seconds) / size);
    if (unit === 'day' && Math.abs(count) === 1) return count < 0 ? 'yesterday' : 'tomorrow';
    const amount = `${Math.abs(count)} ${unit}${Math.abs(count) === 1 ? '' : 's'}`;
    return count < 0 ? `${amount} ago` : `in ${amount}`;
  }
  return 'just now';
}
