import { eachDay } from '../time/utc-day.js';
import { customRangeProblem, presetRange, previousRange } from './range.js';

const NOW = Date.parse('2026-03-01T15:00:00Z');

describe('analytics ranges', () => {
  it('ends presets today and compares with the same number of days before', () => {
    expect(presetRange('today', NOW)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(presetRange('7d', NOW)).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(previousRange(presetRange('7d', NOW))).toEqual({ from: '2026-02-16', to: '2026-02-22' });
    expect(previousRange({ from: '2026-03-01', to: '2026-03-01' })).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(eachDay('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(eachDay(presetRange('90d', NOW).from, '2026-03-01')).toHaveLength(90);
  });

  it('validates custom ranges', () => {
    expect(customRangeProblem('2026-02-01', '2026-02-10', '2026-03-01')).toBeNull();
    expect(customRangeProblem('2026-02-10', '2026-02-01', '2026-03-01')).toMatch(/after/);
    expect(customRangeProblem('2026-02-01', '2026-03-05', '2026-03-01')).toMatch(/future/);
    expect(customRangeProblem('2024-01-01', '2026-03-01', '2026-03-01')).toMatch(/366/);
    expect(customRangeProblem('2026-02-01', undefined, '2026-03-01')).toMatch(/both/);
    expect(customRangeProblem('2026-02-31x', '2026-03-01', '2026-03-01')).toMatch(/YYYY-MM-DD/);
  });
});
