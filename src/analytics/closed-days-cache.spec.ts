import { ClosedDaysCache } from './closed-days-cache.js';

const summary = (n: number, filler = '') =>
  JSON.stringify([
    ['total', 'pageviews', n],
    ['page', `/p${filler}`, n],
  ]);

describe('ClosedDaysCache', () => {
  it('parses a summary once and answers the same parsed counts afterwards', () => {
    const cache = new ClosedDaysCache();
    const added = cache.add('2030-01-01', summary(5));
    expect(added.counts).toEqual([
      ['total', 'pageviews', 5],
      ['page', '/p', 5],
    ]);
    expect(cache.get('2030-01-01')).toBe(added);
    expect(cache.get('2030-01-02')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('is bounded by entries, the least recently used going first', () => {
    const cache = new ClosedDaysCache({ maxEntries: 2, maxBytes: 1_000_000, absentMs: 1000 });
    cache.add('2030-01-01', summary(1));
    cache.add('2030-01-02', summary(2));
    expect(cache.get('2030-01-01')).toBeDefined(); // now the most recently used
    cache.add('2030-01-03', summary(3));
    expect(cache.size).toBe(2);
    expect(cache.get('2030-01-02')).toBeUndefined();
    expect(cache.get('2030-01-01')).toBeDefined();
    expect(cache.get('2030-01-03')).toBeDefined();
  });

  it('is bounded by bytes, and never keeps a summary larger than the bound', () => {
    const one = summary(1, 'x'.repeat(100));
    const cache = new ClosedDaysCache({ maxEntries: 100, maxBytes: one.length * 2, absentMs: 1000 });
    cache.add('2030-01-01', one);
    cache.add('2030-01-02', one);
    expect(cache.totalBytes).toBe(one.length * 2);
    cache.add('2030-01-03', one);
    expect(cache.size).toBe(2);
    expect(cache.totalBytes).toBeLessThanOrEqual(one.length * 2);
    expect(cache.get('2030-01-01')).toBeUndefined();
    // Too big on its own: answered, not kept.
    const huge = summary(9, 'y'.repeat(one.length * 3));
    expect(cache.add('2030-01-04', huge).counts[0]).toEqual(['total', 'pageviews', 9]);
    expect(cache.get('2030-01-04')).toBeUndefined();
    expect(cache.totalBytes).toBeLessThanOrEqual(one.length * 2);
  });

  it('believes a day has no summary only for a while, and forgets that as soon as the summary is seen', () => {
    const cache = new ClosedDaysCache({ maxEntries: 10, maxBytes: 1_000_000, absentMs: 1000 });
    cache.markAbsent('2030-01-01', 0);
    expect(cache.isKnownAbsent('2030-01-01', 999)).toBe(true);
    expect(cache.isKnownAbsent('2030-01-01', 1000)).toBe(false);
    cache.markAbsent('2030-01-02', 0);
    cache.add('2030-01-02', summary(2));
    expect(cache.isKnownAbsent('2030-01-02', 1)).toBe(false);
    expect(cache.get('2030-01-02')?.counts[0]).toEqual(['total', 'pageviews', 2]);
  });

  it('drops the days before a cut-off (the retention window)', () => {
    const cache = new ClosedDaysCache();
    cache.add('2030-01-01', summary(1));
    cache.add('2030-01-05', summary(5));
    cache.markAbsent('2030-01-02', 0);
    cache.forgetBefore('2030-01-03');
    expect(cache.get('2030-01-01')).toBeUndefined();
    expect(cache.isKnownAbsent('2030-01-02', 1)).toBe(false);
    expect(cache.get('2030-01-05')).toBeDefined();
    expect(cache.totalBytes).toBe(summary(5).length);
  });
});
