/**
 * Calendar days in UTC as `yyyy-mm-dd` strings: the unit of daily counters, snapshots and ranges
 * (analytics, MRR snapshots, tool usage, sign-up series). Such strings sort as the days do.
 */
export const DAY_MS = 86_400_000;

export const utcDay = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);

/** The day `days` after `day` (negative: before). */
export const addDays = (day: string, days: number): string => utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** Days from `from` to `to`, both included. */
export const daysInRange = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/** Every day from `from` to `to` inclusive. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
