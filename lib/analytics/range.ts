/**
 * Date ranges of the analytics dashboard, in UTC days (`yyyy-mm-dd`). Shared by the server (which
 * validates and computes) and the client (the range picker and the URL query).
 */
import { addDays, daysInRange, utcDay } from '../time/utc-day.js';

export const ANALYTICS_PRESETS = ['today', '7d', '30d', '90d'] as const;
export type AnalyticsPreset = (typeof ANALYTICS_PRESETS)[number];
/** The longest custom range. */
export const ANALYTICS_MAX_DAYS = 366;

export const DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** What the page's URL and the API's query carry: a preset, or a custom `from`..`to`. */
export type RangeQuery = { preset: string } | { from: string; to: string };

/** The range of a page URL's query (`?preset=7d` or `?from=…&to=…`); anything else is the last 30 days. */
export function rangeQueryOf(params: URLSearchParams): RangeQuery {
  const from = params.get('from');
  const to = params.get('to');
  const preset = params.get('preset');
  if (from && to) return { from, to };
  return { preset: ANALYTICS_PRESETS.includes(preset as AnalyticsPreset) ? (preset as AnalyticsPreset) : '30d' };
}

/** `preset=7d` or `from=…&to=…`: the API's query, and the page's. */
export const rangeSearch = (range: RangeQuery) => new URLSearchParams(range as Record<string, string>).toString();

export interface DayRange {
  from: string;
  to: string;
}

/** A preset ending today: `today` is one day, `7d` the last seven days including today. */
export function presetRange(preset: AnalyticsPreset, now: Date | number): DayRange {
  const to = utcDay(now);
  const length = preset === 'today' ? 1 : Number(preset.slice(0, -1));
  return { from: addDays(to, -(length - 1)), to };
}

/** The same number of days immediately before. */
export function previousRange({ from, to }: DayRange): DayRange {
  const length = daysInRange(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** Why a custom range is refused, or null. */
export function customRangeProblem(from: string | undefined, to: string | undefined, today: string): string | null {
  if (!from || !to) return 'Choose both a start and an end date.';
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to) || Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to))) {
    return 'Dates must be given as YYYY-MM-DD.';
  }
  if (from > to) return 'The start date must not be after the end date.';
  if (to > today) return 'The end date must not be in the future.';
  if (daysInRange(from, to) > ANALYTICS_MAX_DAYS) return `A range can be at most ${ANALYTICS_MAX_DAYS} days.`;
  return null;
}
