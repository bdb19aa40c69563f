import { runInNewContext } from 'node:vm';
import { stateExpression } from './state-script.js';

describe('stateExpression', () => {
  const evaluate = (source: string) => runInNewContext(`(${source})`) as unknown;

  it('gives back the same data when the browser runs it', () => {
    const state = { queries: [{ queryKey: ['auth', 'me'], state: { data: { name: 'Ada', id: 'a1' }, error: null, count: 3, ok: true } }] };
    expect(evaluate(stateExpression(state))).toEqual(state);
  });

  it('escapes what could end the script or open a comment, and the line separators', () => {
    const name = '</script><script>alert(1)</script><!-- \u2028\u2029';
    const source = stateExpression({ name });
    expect(source).not.toMatch(/[<\u2028\u2029]/);
    expect(source).toContain('\\u003C/script>');
    expect(evaluate(source)).toEqual({ name });
  });

  it('writes what the API would: dates as ISO strings, undefined fields left out', () => {
    const source = stateExpression({ at: new Date('2026-11-25T10:00:00.000Z'), missing: undefined, kept: null });
    expect(evaluate(source)).toEqual({ at: '2026-11-25T10:00:00.000Z', kept: null });
  });
});
