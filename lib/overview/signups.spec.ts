import { signupSeries, utcDayStart } from './signups.js';

describe('signupSeries', () => {
  const now = new Date('2026-11-24T14:30:00Z');

  it('buckets creation times by UTC day, oldest first, with empty days as 0', () => {
    const series = signupSeries(
      [
        new Date('2026-11-24T00:00:00Z'),
        new Date('2026-11-24T13:00:00Z'),
        new Date('2026-11-22T23:59:59Z'),
        new Date('2026-11-11T00:00:00Z'),
      ],
      now,
      14,
    );
    expect(series).toHaveLength(14);
    expect(series[0]).toEqual({ day: '2026-11-11', count: 1 });
    expect(series[11]).toEqual({ day: '2026-11-22', count: 1 });
    expect(series[12]).toEqual({ day: '2026-11-23', count: 0 });
    expect(series[13]).toEqual({ day: '2026-11-24', count: 2 });
  });

  it('ignores times before the window and in the future', () => {
    const series = signupSeries([new Date('2026-11-10T23:59:59Z'), new Date('2026-11-25T00:00:00Z')], now, 14);
    expect(series.every((day) => day.count === 0)).toBe(true);
  });

  it('starts a day at 00:00 UTC', () => {
    expect(utcDayStart(now).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(utcDayStart(now, 6).toISOString()).toBe('2026-11-18T00:00:00.000Z');
  });
});
