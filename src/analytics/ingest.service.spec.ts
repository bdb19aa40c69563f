import { randomBytes } from 'node:crypto';
import { parseBeacon } from './collector.js';
import { referrerHostOf, splitKey, visitorHash } from './ingest.service.js';

describe('visitorHash', () => {
  const salt = randomBytes(16);
  const ua = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

  it('is 96 bits, stable for a salt, and changes with the salt, the address or the browser', () => {
    const hash = visitorHash(salt, 'hitscope', '203.0.113.9', ua, 'hitscope.test');
    expect(hash).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(visitorHash(salt, 'hitscope', '203.0.113.9', ua, 'hitscope.test')).toBe(hash);
    expect(visitorHash(randomBytes(16), 'hitscope', '203.0.113.9', ua, 'hitscope.test')).not.toBe(hash);
    expect(visitorHash(salt, 'hitscope', '203.0.113.10', ua, 'hitscope.test')).not.toBe(hash);
    expect(visitorHash(salt, 'hitscope', '203.0.113.9', `${ua} x`, 'hitscope.test')).not.toBe(hash);
    expect(hash).not.toContain('203');
  });
});

describe('collector input', () => {
  it('accepts a beacon and refuses garbage with a reason', () => {
    expect(parseBeacon('{"p":"/pricing","r":"https://google.com/","w":1280,"us":"news"}')).toEqual({
      p: '/pricing',
      r: 'https://google.com/',
      w: 1280,
      us: 'news',
    });
    expect(parseBeacon('not json')).toMatch(/JSON/);
    expect(parseBeacon('[]')).toMatch(/object/);
    expect(parseBeacon('{"p":"pricing"}')).toMatch(/path/);
    expect(parseBeacon('{"p":"//evil.example/"}')).toMatch(/path/);
    expect(parseBeacon('{"p":"/a b"}')).toMatch(/path/);
    expect(parseBeacon('{"p":"/","x":1}')).toMatch(/Unknown field x/);
    expect(parseBeacon('{"p":"/","w":-1}')).toMatch(/w must/);
    expect(parseBeacon('{"p":"/","wd":"yes"}')).toMatch(/wd must/);
    expect(parseBeacon('{"p":"/nope","nf":true}')).toEqual({ p: '/nope', nf: true });
    expect(parseBeacon('{"p":"/","nf":1}')).toMatch(/nf must/);
  });

  it('keeps only external referrer hosts', () => {
    expect(referrerHostOf('https://www.Google.com/search?q=x', 'hitscope.test')).toBe('google.com');
    expect(referrerHostOf('https://hitscope.test/pricing', 'hitscope.test')).toBe('');
    expect(referrerHostOf('javascript:alert(1)', 'hitscope.test')).toBe('');
    expect(referrerHostOf('not a url', 'hitscope.test')).toBe('');
    expect(splitKey('2026-03-01|page|/a|b')).toEqual({ day: '2026-03-01', dim: 'page', value: '/a|b' });
  });
});
