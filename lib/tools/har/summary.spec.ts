import { describe, expect, it } from '@jest/globals';
import { countMatches } from './summary.js';

describe('countMatches (the filters’ "N matching hits · M other requests" line)', () => {
  const rows = [
    { secondary: null, container: false }, // a hit
    { secondary: 'Google signals follow-up', container: false },
    { secondary: null, container: true }, // a tag that loaded
    { secondary: null, container: false }, // a hit
    {}, // a hit, as the extension's Hit objects have it (no fields)
  ];

  it('counts every row when nothing is filtered, secondary requests and container loads apart', () => {
    expect(countMatches(rows)).toEqual({ hits: 3, others: 2 });
    expect(countMatches(rows, null)).toEqual({ hits: 3, others: 2 });
  });

  it('counts only the rows a filter found, by their indexes', () => {
    expect(countMatches(rows, Int32Array.from([1, 3]))).toEqual({ hits: 1, others: 1 });
    expect(countMatches(rows, [])).toEqual({ hits: 0, others: 0 });
  });
});
