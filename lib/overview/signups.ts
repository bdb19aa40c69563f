import type { SignupDay } from '../api/overview.js';
import { DAY_MS, utcDay } from '../time/utc-day.js';

/** 00:00 UTC of the day `days` before the day of `now`. */
export function utcDayStart(now: Date, daysBefore = 0): Date {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(start - daysBefore * DAY_MS);
}

/**
 * Sign-ups per UTC day for the `days` days ending today, oldest first: every day is present, a day
 * without sign-ups is 0, and creation times outside the window are ignored.
 */
export function signupSeries(createdAt: readonly Date[], now: Date, days: number): SignupDay[] {
  const first = utcDayStart(now, days - 1).getTime();
  const counts = new Array<number>(days).fill(0);
  for (const at of createdAt) {
    const index = Math.floor((at.getTime() - first) / DAY_MS);
    if (index >= 0 && index < days) counts[index] += 1;
  }
  return counts.map((count, index) => ({ day: utcDay(first + index * DAY_MS), count }));
}
