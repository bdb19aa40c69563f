import { formatDuration, sendEtaSeconds } from './newsletter-campaigns.js';

const NONE = { maxPerSecond: null, maxPerHour: null, maxPerDay: null };

describe('campaign ETA', () => {
  it('paces by the per-second limit', () => {
    expect(sendEtaSeconds(1000, { ...NONE, maxPerSecond: 10 })).toBe(100);
    expect(sendEtaSeconds(0, { ...NONE, maxPerSecond: 10 })).toBe(0);
  });

  it('waits for the next hour or day window once a window is used up', () => {
    // 2 500 at 1 000 an hour: two full hours, then 500 at 10/s.
    expect(sendEtaSeconds(2500, { maxPerSecond: 10, maxPerHour: 1000, maxPerDay: null })).toBe(2 * 3600 + 50);
    // Exactly one window's worth needs no wait.
    expect(sendEtaSeconds(1000, { maxPerSecond: null, maxPerHour: 1000, maxPerDay: null })).toBeNull();
    expect(sendEtaSeconds(10_001, { ...NONE, maxPerDay: 10_000 })).toBe(86_400);
  });

  it('uses the observed rate without a per-second limit, and knows nothing without either', () => {
    expect(sendEtaSeconds(600, NONE, 20)).toBe(30);
    expect(sendEtaSeconds(600, NONE)).toBeNull();
  });

  it('formats durations for people', () => {
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(600)).toBe('10 min');
    expect(formatDuration(2 * 3600 + 50)).toBe('2 h 1 min');
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe('3 d 4 h');
  });
});
