import { formatDate, formatDateTime, formatDay, formatRelative } from './date.js';

describe('dates', () => {
  it('writes a day in British English and UTC, whatever the process is set to', () => {
    // 03:05 UTC on 24 Nov is still 23 Nov in Los Angeles: the date is the UTC one.
    expect(formatDate('2026-11-24T03:05:09Z')).toBe('24 Nov 2026');
    expect(formatDate(new Date('2026-01-01T00:00:00Z'))).toBe('1 Jan 2026');
    expect(formatDate(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe('31 Dec 2026');
  });

  it('matches what Intl gives for en-GB, medium, UTC, for every month (how dates read before)', () => {
    const intl = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
    for (let month = 0; month < 12; month += 1) {
      const date = new Date(Date.UTC(2026, month, 9, 22, 30));
      expect(formatDate(date)).toBe(intl.format(date));
    }
  });

  it('writes a time on the 24-hour clock, in UTC, and says so', () => {
    expect(formatDateTime('2026-11-24T03:05:09Z')).toBe('24 Nov 2026, 03:05 UTC');
    expect(formatDateTime('2026-11-24T23:59:09.999Z', { seconds: true })).toBe('24 Nov 2026, 23:59:09 UTC');
    expect(formatDay('2026-09-04')).toBe('4 Sept');
  });

  it('says how long ago or how soon, in English', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    const at = (seconds: number) => new Date(now + seconds * 1000);
    expect(formatRelative(at(-20), now)).toBe('just now');
    expect(formatRelative(at(-60), now)).toBe('1 minute ago');
    expect(formatRelative(at(-5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelative(at(-3 * 3600), now)).toBe('3 hours ago');
    expect(formatRelative(at(-26 * 3600), now)).toBe('yesterday');
    expect(formatRelative(at(26 * 3600), now)).toBe('tomorrow');
    expect(formatRelative(at(-45 * 86_400), now)).toBe('2 months ago');
    expect(formatRelative(at(3 * 86_400), now)).toBe('in 3 days');
  });
});
