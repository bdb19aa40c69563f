import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LinkerBrowser } from './fingerprint.js';
import { decode, type DecodedLinker, decorate, encode } from './linker.js';

interface ReferenceCase {
  name: string;
  browser: LinkerBrowser;
  time: number;
  pageCookies: Record<string, string>;
  linkerCookies: Record<string, string>;
  linker: string;
  decodedByGtag: Record<string, string>;
  acceptedAfterMinutes: boolean[];
}
const reference = (
  JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/linker/gtag-reference.json'), 'utf8')) as { cases: ReferenceCase[] }
).cases;

const BROWSER: LinkerBrowser = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Test/1.0', timezoneOffset: -60, language: 'en-GB' };
const TIME = Date.parse('2026-11-23T02:10:30Z');

function decoded(input: string, check?: { browser: LinkerBrowser; time: number }): DecodedLinker {
  const result = decode(input, check);
  if (!result.ok) throw new Error(`expected a decode, got: ${result.error}`);
  return result;
}

describe('decode: gtag.js reference links', () => {
  describe.each(reference)('$name', (fixture) => {
    it('decodes to the same values as gtag.js', () => {
      const result = decoded(fixture.linker);
      expect(Object.fromEntries(result.cookies.map((cookie) => [cookie.key, cookie.value]))).toEqual(fixture.decodedByGtag);
      expect(result.warnings).toEqual([]);
    });

    it('rebuilds the cookies as they read on the page', () => {
      const cookies = decoded(fixture.linker).cookies.map((cookie) => [cookie.cookieName, cookie.cookieValue]);
      expect(Object.fromEntries(cookies)).toEqual(fixture.pageCookies);
    });

    it('agrees with gtag.js on which minutes accept the link', () => {
      const accepted = fixture.acceptedAfterMinutes.map(
        (_, minutes) =>
          decoded(fixture.linker, { browser: fixture.browser, time: fixture.time + minutes * 60_000 }).verification?.status === 'valid',
      );
      expect(accepted).toEqual(fixture.acceptedAfterMinutes);
    });

    it('encodes the page cookies to exactly the link gtag.js made', () => {
      const result = encode({ cookies: fixture.pageCookies, browser: fixture.browser, time: fixture.time });
      // gtag orders the entries by the tags that contributed them; feed the link's order.
      const ordered = encode({ cookies: fixture.linkerCookies, browser: fixture.browser, time: fixture.time });
      expect(ordered).toMatchObject({ ok: true, value: fixture.linker });
      expect(
        result.ok &&
          decoded(result.value)
            .cookies.map((cookie) => cookie.value)
            .sort(),
      ).toEqual(Object.values(fixture.linkerCookies).sort());
    });
  });
});

describe('decode: input forms', () => {
  const link = encode({ cookies: { _ga: '1.2' }, browser: BROWSER, time: TIME });
  const value = link.ok ? link.value : '';

  it.each([
    ['a bare value', () => value, 'value'],
    ['_gl=value', () => `_gl=${value}`, 'value'],
    ['a URL query', () => `https://shop.example.com/cart?step=2&_gl=${value}&utm_source=x#top`, 'query'],
    ['a URL fragment', () => `https://shop.example.com/cart#_gl=${value}`, 'fragment'],
    ['a percent-encoded value', () => `https://shop.example.com/?_gl=${encodeURIComponent(value)}`, 'query'],
    ['a doubly encoded value', () => encodeURIComponent(encodeURIComponent(value)), 'value'],
    ['a whole percent-encoded URL', () => encodeURIComponent(`https://shop.example.com/?_gl=${value}`), 'query'],
    ['surrounding whitespace', () => `  ${value}\n`, 'value'],
  ])('reads %s', (_, input, source) => {
    const result = decoded(input());
    expect(result).toMatchObject({ source, linker: value, version: '1', fingerprint: value.split('*')[1] });
    expect(result.cookies.map((cookie) => cookie.value)).toEqual(['1.2']);
  });

  it('verifies when a browser and time are given', () => {
    expect(decoded(value, { browser: BROWSER, time: TIME + 60_000 }).verification).toMatchObject({ status: 'valid', minutesAgo: 1 });
  });
});

describe('decode: malformed input never throws', () => {
  it.each([
    ['', 'Enter a _gl value or a URL.'],
    ['   ', 'Enter a _gl value or a URL.'],
    ['hello', 'Not a _gl value'],
    ['https://example.com/?a=1', 'No _gl parameter'],
    ['https://example.com/#/checkout?_gl=1*abc*', 'not as a parameter gtag.js reads'],
    ['_gl=', 'The _gl parameter is empty.'],
    ['2*abc*_ga*MQ..', 'Unsupported linker version "2"'],
    ['1*abc*_ga', 'The key "_ga" has no value'],
    ['1*abc*_ga*MQ..*_gid', 'The key "_gid" has no value'],
    ['1*abc**MQ..', 'Entry 1 has an empty key.'],
    ['1*abc*_ga*M!Q', 'The value of "_ga" is not valid base64'],
    ['%E0%A4%A', 'broken percent-escape'],
    ['x'.repeat(20_000), 'longer than'],
  ])('%.40j', (input, message) => {
    const result = decode(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(message);
  });

  it('refuses non-string input', () => {
    expect(decode(42)).toEqual({ ok: false, error: 'Enter a _gl value or a URL.' });
    expect(decode(undefined)).toMatchObject({ ok: false });
  });

  it('warns about what gtag.js would reject but still shows the cookies', () => {
    const result = decoded('1*NOT-BASE36*_ga*MS4y*_ga*MS4z*uid*a+b/');
    expect(result.warnings).toEqual([
      expect.stringContaining('fingerprint is not a base-36'),
      expect.stringContaining('"_ga" appears more than once'),
      expect.stringContaining('"+" or "/"'),
    ]);
    expect(result.cookies).toHaveLength(3);
  });

  it('accepts a link with no cookies, as gtag.js writes it', () => {
    expect(decoded('1*abc*')).toMatchObject({ cookies: [], payload: '' });
  });
});

describe('encode', () => {
  it('strips page-cookie prefixes and sends FPLC as _fplc', () => {
    const result = encode({ cookies: { _ga: 'GA1.1.11.22', FPLC: 'x%2By' }, browser: BROWSER, time: TIME });
    expect(result).toMatchObject({
      ok: true,
      entries: [
        { key: '_ga', value: '11.22' },
        { key: '_fplc', value: 'x%2By' },
      ],
    });
  });

  it('keeps values as given with normalize: false', () => {
    const result = encode({ cookies: [{ key: '_ga', value: 'GA1.1.11.22' }], browser: BROWSER, time: TIME, normalize: false });
    expect(result.ok && decoded(result.value).cookies[0]!.value).toBe('GA1.1.11.22');
  });

  it.each([
    [{ 'bad*key': 'x' }, 'Cookie name "bad*key"'],
    [{ '': 'x' }, 'Cookie name ""'],
    [{ _ga: 'x'.repeat(5000) }, 'longer than 4096'],
    [{ _ga: '\uD800' }, 'broken Unicode'],
  ])('refuses %.40j', (cookies, message) => {
    const result = encode({ cookies, browser: BROWSER, time: TIME });
    expect(!result.ok && result.error).toContain(message);
  });

  it('refuses duplicate names and too many cookies', () => {
    expect(
      encode({
        cookies: [
          { key: '_ga', value: '1' },
          { key: '_ga', value: '2' },
        ],
        browser: BROWSER,
        time: TIME,
      }),
    ).toMatchObject({ ok: false });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(encode({ cookies: many, browser: BROWSER, time: TIME })).toMatchObject({ ok: false, error: 'At most 50 cookies.' });
  });
});

describe('decorate', () => {
  it.each([
    ['https://a.example/', 'https://a.example/?_gl=V'],
    ['https://a.example/p?x=1', 'https://a.example/p?x=1&_gl=V'],
    ['https://a.example/p?x=1#frag', 'https://a.example/p?x=1&_gl=V#frag'],
    ['https://a.example/p?_gl=OLD&x=1', 'https://a.example/p?x=1&_gl=V'],
    ['https://a.example/p?x=1#_gl=OLD', 'https://a.example/p?x=1&_gl=V'],
    ['https://a.example/p#a=1&_gl=OLD', 'https://a.example/p?_gl=V#a=1'],
  ])('puts _gl into the query of %s', (url, expected) => {
    expect(decorate(url, 'V')).toEqual({ ok: true, url: expected });
  });

  it('puts _gl into the fragment when asked', () => {
    expect(decorate('https://a.example/p?x=1#top', 'V', 'fragment')).toEqual({ ok: true, url: 'https://a.example/p?x=1#top&_gl=V' });
    expect(decorate('https://a.example/p?_gl=OLD', 'V', 'fragment')).toEqual({ ok: true, url: 'https://a.example/p#_gl=V' });
  });

  it('decorates through encode and decodes back from the URL', () => {
    const result = encode({ cookies: { _ga: '1.2' }, browser: BROWSER, time: TIME, url: 'https://a.example/?q=1#x' });
    expect(result.ok && result.url).toBe(`https://a.example/?q=1&_gl=${result.ok ? result.value : ''}#x`);
    expect(result.ok && decoded(result.url!).cookies[0]!.value).toBe('1.2');
  });
});

describe('round trip (property)', () => {
  /** mulberry32: a small seeded generator so a failure reproduces. */
  function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-';
  const VALUE_POOLS = [
    '0123456789.',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.$~%+/=*&#?',
    ' éüß☕𝄞\u0000\u007f\u00ff中文',
  ];

  it('decode(encode(x)) gives back every key, value and the fingerprint, for 2000 random inputs', () => {
    const next = random(20261123);
    const pick = (chars: string) => {
      const list = [...chars];
      return list[Math.floor(next() * list.length)]!;
    };
    for (let run = 0; run < 2000; run++) {
      const count = Math.floor(next() * 6);
      const cookies: { key: string; value: string }[] = [];
      const used = new Set<string>();
      while (cookies.length < count) {
        let key = '';
        const keyLength = 1 + Math.floor(next() * 12);
        for (let i = 0; i < keyLength; i++) key += pick(KEY_CHARS);
        if (used.has(key)) continue;
        used.add(key);
        let value = '';
        const pool = VALUE_POOLS[Math.floor(next() * VALUE_POOLS.length)]!;
        const valueLength = Math.floor(next() * 40);
        for (let i = 0; i < valueLength; i++) value += pick(pool);
        cookies.push({ key, value });
      }
      const browser: LinkerBrowser = {
        userAgent: Array.from({ length: Math.floor(next() * 80) }, () => pick(VALUE_POOLS[1]! + ' ()/;')).join(''),
        timezoneOffset: Math.round(next() * 1680) - 840,
        language: ['en-US', 'de', 'fr-FR', 'pt-BR', ''][Math.floor(next() * 5)]!,
      };
      const time = Math.floor(next() * 4e12);
      const url = next() < 0.5 ? `https://example.com/p?q=${run}${next() < 0.5 ? '#frag' : ''}` : undefined;
      const encoded = encode({ cookies, browser, time, url, normalize: false });
      if (!encoded.ok) throw new Error(`run ${run}: ${encoded.error}`);
      const back = decode(url ? encoded.url! : encoded.value, { browser, time });
      if (!back.ok) throw new Error(`run ${run}: ${back.error} for ${encoded.value}`);
      expect(back.cookies.map(({ key, value }) => ({ key, value }))).toEqual(cookies);
      expect(back.fingerprint).toBe(encoded.fingerprint);
      expect(back.verification?.status).toBe('valid');
    }
  });
});
