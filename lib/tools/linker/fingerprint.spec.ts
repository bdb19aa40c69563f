import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint, type LinkerBrowser, minuteIndex, SEARCH_BACK_MINUTES, verify } from './fingerprint.js';

interface AmpVectors {
  browser: LinkerBrowser;
  time: number;
  cases: { linker: string; fingerprint: string }[];
  invalid: { linker: string }[];
}
const amp = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/linker/amp-test-vectors.json'), 'utf8')) as AmpVectors;

const payloadOf = (linker: string) => linker.split('*').slice(2).join('*');
const MINUTE = 60_000;

describe('fingerprint', () => {
  it.each(amp.cases)('reproduces the AMP project test vector $fingerprint', ({ linker, fingerprint: expected }) => {
    expect(fingerprint(payloadOf(linker), amp.browser, minuteIndex(amp.time))).toBe(expected);
  });

  it('changes with every browser fact and with the minute', () => {
    const base = fingerprint('_ga*MQ..', amp.browser, 100);
    expect(fingerprint('_ga*MQ..', { ...amp.browser, userAgent: `${amp.browser.userAgent} ` }, 100)).not.toBe(base);
    expect(fingerprint('_ga*MQ..', { ...amp.browser, timezoneOffset: 0 }, 100)).not.toBe(base);
    expect(fingerprint('_ga*MQ..', { ...amp.browser, language: 'en-GB' }, 100)).not.toBe(base);
    expect(fingerprint('_ga*MQ..', amp.browser, 101)).not.toBe(base);
    expect(fingerprint('_ga*Mg..', amp.browser, 100)).not.toBe(base);
  });
});

describe('verify', () => {
  const [vector] = amp.cases;
  const check = (time: number) => verify(vector!.fingerprint, payloadOf(vector!.linker), amp.browser, time);
  const made = minuteIndex(amp.time) * MINUTE;

  it('is valid in the minute the link was made, and says when it expires', () => {
    const result = check(made + 20_000);
    expect(result).toMatchObject({
      status: 'valid',
      minutesAgo: 0,
      expiresInSeconds: 160,
      expiresAt: new Date(made + 3 * MINUTE).toISOString(),
    });
    expect(result.message).toBe('Valid: generated in this minute, expires in 2 minutes 40 s.');
  });

  it('stays valid one and two minutes later, as gtag.js accepts offsets 0, 1 and 2', () => {
    expect(check(made + MINUTE + 30_000)).toMatchObject({
      status: 'valid',
      minutesAgo: 1,
      message: 'Valid: generated 1 minute ago, expires in 1 minute 30 s.',
    });
    expect(check(made + 2 * MINUTE + 59_000)).toMatchObject({ status: 'valid', minutesAgo: 2, expiresInSeconds: 1 });
  });

  it('is expired from the third minute on, with how long ago', () => {
    expect(check(made + 3 * MINUTE)).toMatchObject({ status: 'expired', minutesAgo: 3, expiredSecondsAgo: 0 });
    expect(check(made + 3 * MINUTE).message).toMatch(/^Expired less than a minute ago/);
    const late = check(made + 40 * MINUTE + 5_000);
    expect(late).toMatchObject({ status: 'expired', minutesAgo: 40, expiredSecondsAgo: 37 * 60 + 5 });
    expect(late.message).toMatch(/^Expired 37 minutes ago \(generated 40 minutes ago/);
  });

  it('says when the link was made after the checked time', () => {
    expect(check(made - 5 * MINUTE)).toMatchObject({ status: 'future', minutesAhead: 5 });
  });

  it('reports a mismatch for another browser, a changed cookie, or a link older than the search window', () => {
    const other = verify(vector!.fingerprint, payloadOf(vector!.linker), { ...amp.browser, language: 'de-DE' }, amp.time);
    expect(other).toMatchObject({ status: 'mismatch', searchedHours: 48 });
    expect(other.message).toContain('last 48 hours');
    expect(verify(vector!.fingerprint, 'key1*dmFsdWUy', amp.browser, amp.time).status).toBe('mismatch');
    expect(check(made + (SEARCH_BACK_MINUTES + 1) * MINUTE).status).toBe('mismatch');
    expect(verify(amp.invalid[0]!.linker.split('*')[1]!, payloadOf(amp.invalid[0]!.linker), amp.browser, amp.time).status).toBe('mismatch');
  });
});
