import { interpret, toLinkerKey, toLinkerValue } from './cookies.js';

describe('interpret', () => {
  it('reads a GA4 client id and rebuilds the _ga cookie', () => {
    const result = interpret('_ga', '1480923751.1763647200');
    expect(result).toMatchObject({ kind: 'ga-client-id', cookieName: '_ga', cookieValue: 'GA1.1.1480923751.1763647200', warnings: [] });
    expect(result.details).toEqual([
      { label: 'Client id', value: '1480923751.1763647200' },
      { label: 'Random number', value: '1480923751' },
      { label: 'First visit', value: '2025-11-20 14:00:00 UTC (1763647200)' },
    ]);
  });

  it('reads a GS2 session cookie field by field', () => {
    const result = interpret('_ga_ABC123', 's1763647100$o3$g1$t1763647405$j55$l0$h0');
    expect(result).toMatchObject({ kind: 'ga-session', cookieValue: 'GS2.1.s1763647100$o3$g1$t1763647405$j55$l0$h0' });
    expect(result.details).toEqual(
      expect.arrayContaining([
        { label: 'Measurement id', value: 'G-ABC123' },
        { label: 'Format', value: 'GS2 (prefixed fields, $-separated)' },
        { label: 'Session id', value: '2025-11-20 13:58:20 UTC (1763647100)' },
        { label: 'Session number', value: '3' },
        { label: 'Engaged', value: '1' },
        { label: 'Last hit', value: '2025-11-20 14:03:25 UTC (1763647405)' },
        { label: 'Join timer', value: '55' },
      ]),
    );
  });

  it('reads a GS1 session cookie by position', () => {
    const result = interpret('_ga_Q1W2E3R4T5', '1705312700.2.1.1705312799.0.0.0');
    expect(result).toMatchObject({ kind: 'ga-session', cookieValue: 'GS1.1.1705312700.2.1.1705312799.0.0.0' });
    expect(result.details).toContainEqual({ label: 'Session number', value: '2' });
    expect(result.details).toContainEqual({ label: 'Format', value: 'GS1 (positional, dot-separated)' });
  });

  it('reads Google Ads cookies', () => {
    expect(interpret('_gcl_au', '918273645.1763640000')).toMatchObject({ kind: 'gcl-au', cookieValue: '1.1.918273645.1763640000' });
    const aw = interpret('_gcl_aw', 'GCL.1763647300.Cj0KCQiAz5-EXAMPLEgclid_BwE');
    expect(aw).toMatchObject({ kind: 'gclid', cookieValue: 'GCL.1763647300.Cj0KCQiAz5-EXAMPLEgclid_BwE' });
    expect(aw.details).toContainEqual({ label: 'gclid', value: 'Cj0KCQiAz5-EXAMPLEgclid_BwE' });
    expect(interpret('_gcl_gb', 'GCL.1.x').details).toContainEqual({ label: 'gbraid / wbraid', value: 'x' });
    expect(interpret('_gac_UA-12345-1', '1.1719791900.EAIa')).toMatchObject({ kind: 'gac' });
  });

  it('names FPLC and leaves unknown keys alone', () => {
    expect(interpret('_fplc', 'abc')).toMatchObject({ kind: 'fplc', cookieName: 'FPLC', cookieValue: 'abc' });
    expect(interpret('uid', '42')).toMatchObject({ kind: 'unknown', cookieName: 'uid', cookieValue: '42' });
  });

  it('flags whole cookie values where gtag sends only a part', () => {
    const result = interpret('_ga', 'GA1.2.1.2');
    expect(result.cookieValue).toBe('GA1.2.1.2');
    expect(result.warnings[0]).toContain('whole _ga cookie');
  });
});

describe('toLinkerValue', () => {
  it('strips the prefixes gtag does not send', () => {
    expect(toLinkerValue('_ga', 'GA1.1.1.2')).toBe('1.2');
    expect(toLinkerValue('_ga_X1', 'GS2.1.s1$o1')).toBe('s1$o1');
    expect(toLinkerValue('_ga_X1', 'GS1.1.1.2.3.4')).toBe('1.2.3.4');
    expect(toLinkerValue('_gcl_au', '1.1.918273645.1763640000')).toBe('918273645.1763640000');
    expect(toLinkerValue('_gcl_aw', 'GCL.1.x')).toBe('GCL.1.x');
    expect(toLinkerValue('_ga', '1.2')).toBe('1.2');
    expect(toLinkerKey('FPLC')).toBe('_fplc');
  });
});
