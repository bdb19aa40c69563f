import { fixture } from '../../../test/fixtures/har/helpers.js';
import { HarError, parseHar } from './analyse.js';
import { HarStreamParser, type HarStreamOptions } from './stream-parser.js';

/** Feeds `chunks` to a parser and answers the entries it handed out and its end result. */
function run(chunks: Iterable<string>, options: Omit<HarStreamOptions, 'onEntry'> = {}) {
  const entries: unknown[] = [];
  const parser = new HarStreamParser({
    ...options,
    onEntry: (entry, index) => {
      expect(index).toBe(entries.length);
      entries.push(entry);
    },
  });
  for (const chunk of chunks) parser.push(chunk);
  return { entries, end: parser.end() };
}

/** The error a run ends with (and the entries handed out before it). */
function failure(chunks: Iterable<string>) {
  const entries: unknown[] = [];
  const parser = new HarStreamParser({ onEntry: (entry) => entries.push(entry) });
  try {
    for (const chunk of chunks) parser.push(chunk);
    parser.end();
  } catch (error) {
    expect(error).toBeInstanceOf(HarError);
    return { error: error as HarError, entries };
  }
  throw new Error('the parser accepted the text');
}

/** The text cut at every position in `cuts`. */
function split(text: string, cuts: number[]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    parts.push(text.slice(from, cut));
    from = cut;
  }
  parts.push(text.slice(from));
  return parts;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the parser hands out for an entry: the entry with its response body (and Chrome extras) as null. */
function skipped(entry: Record<string, unknown>): unknown {
  const copy = structuredClone(entry) as Record<string, Record<string, Record<string, unknown>>>;
  if (typeof copy.response?.content === 'object' && 'text' in copy.response.content) copy.response.content.text = null as never;
  for (const key of ['_initiator', '_webSocketMessages']) if (key in copy) (copy as Record<string, unknown>)[key] = null;
  return copy;
}

// A small HAR with everything that trips a scanner: braces, brackets, quotes and backslashes inside
// strings, escaped keys, unicode (BMP, astral, escaped), nested arrays, literals, `entries` after
// other keys and `creator` after `entries`.
const tricky = {
  log: {
    version: '1.2',
    pages: [{ id: 'page_1', title: 'a "page" with } and ] and \\', pageTimings: { onLoad: 1.5e3 } }],
    comment: '{"entries": [1, 2]}',
    entries: [
      {
        startedDateTime: '2025-03-14T09:26:53.000Z',
        request: {
          method: 'POST',
          url: 'https://www.google-analytics.com/g/collect?v=2&tid=G-1&en=page_view&dt=%E2%82%AC',
          headers: [{ name: 'x-odd', value: '\\"}]{[,:' }],
          postData: { mimeType: 'text/plain', text: 'en=scroll\r\nen=é€😀 \u0000 \u001f "quoted" \\ end\\' },
        },
        response: {
          status: 204,
          content: { size: 24, mimeType: 'text/html', text: '<p class="x">}{][\\"\\\\</p> 😀 €' },
          headers: [{ name: 'content-type', value: 'text/html' }],
        },
        _initiator: { type: 'script', stack: { callFrames: [{ url: 'https://x/{a}.js', lineNumber: 1 }] } },
        timings: { send: -1, wait: 0.25, receive: 1e-3 },
        cache: {},
        ok: true,
        nothing: null,
        no: false,
      },
      {
        startedDateTime: '2025-03-14T09:26:54.000Z',
        request: { method: 'GET', url: 'https://example.com/a?b=[c]', headers: [] },
        response: { status: 200, content: { size: 0, mimeType: 'x', text: '' }, redirectURL: '' },
        'k\u00e9y \\ "q"': ['nested', ['deep', { text: 'not a response body' }]],
      },
      { response: { content: { text: { unusual: 'object body [' } } }, request: { url: 'https://e.com' } },
      { response: { content: 'no text here', status: 302 } },
    ],
    creator: { name: 'WebInspector', version: '537.36' },
  },
};
const trickyText = JSON.stringify(tricky, null, 1);
const trickyExpected = tricky.log.entries.map((entry) => skipped(entry as Record<string, unknown>));

describe('HarStreamParser', () => {
  it('hands out every entry of a HAR read whole, its body dropped, with version and creator', () => {
    const { entries, end } = run([trickyText]);
    expect(entries).toEqual(trickyExpected);
    expect(end).toEqual({ entries: 4, version: '1.2', creator: { name: 'WebInspector', version: '537.36' } });
  });

  it('keeps every value when asked to skip nothing', () => {
    expect(run([trickyText], { skip: [] }).entries).toEqual(tricky.log.entries);
  });

  it('gives the same result cut in two at every position', () => {
    for (let cut = 0; cut <= trickyText.length; cut++) {
      const { entries, end } = run(split(trickyText, [cut]));
      expect(entries).toEqual(trickyExpected);
      expect(end.entries).toBe(4);
    }
  });

  it('gives the same result one character at a time, and in random pieces', () => {
    expect(run(trickyText).entries).toEqual(trickyExpected);
    const next = random(13);
    for (let round = 0; round < 200; round++) {
      const cuts = Array.from({ length: 1 + Math.floor(next() * 40) }, () => Math.floor(next() * trickyText.length));
      expect(run(split(trickyText, cuts)).entries).toEqual(trickyExpected);
    }
  });

  it('reads UTF-8 split at every byte through a streaming TextDecoder', () => {
    const bytes = new TextEncoder().encode(trickyText);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoder = new TextDecoder();
      const chunks = [
        decoder.decode(bytes.subarray(0, cut), { stream: true }),
        decoder.decode(bytes.subarray(cut), { stream: true }),
        decoder.decode(),
      ];
      expect(run(chunks).entries).toEqual(trickyExpected);
    }
  });

  it('agrees with JSON.parse on each fixture, whole and cut at every position', () => {
    for (const name of ['shop-session.har', 'ga4-batched.har', 'consent-denied.har']) {
      const text = fixture(name);
      const expected = parseHar(text).log.entries.map((entry) => skipped(entry as unknown as Record<string, unknown>));
      expect(run([text]).entries).toEqual(expected);
      const step = Math.max(1, Math.floor(text.length / 400));
      for (let cut = 0; cut <= text.length; cut += step) expect(run(split(text, [cut, cut + 1, cut + 7])).entries).toEqual(expected);
    }
  });

  it('handles escaped backslashes and quotes at the end of a chunk', () => {
    const entry = { request: { url: 'u', postData: { text: 'a\\\\\\"b\\' } }, response: { content: { text: '\\\\"\\' } } };
    const text = JSON.stringify({ log: { entries: [entry, entry] } });
    for (let cut = 0; cut <= text.length; cut++) {
      for (let second = cut; second <= Math.min(text.length, cut + 3); second++) {
        expect(run(split(text, [cut, second])).entries).toEqual([skipped(entry), skipped(entry)]);
      }
    }
  });

  it('reads escaped keys', () => {
    const text = '{"\\u006cog":{"entr\\u0069es":[{"a":1}],"cre\\u0061tor":{"name":"X"}}}';
    for (let cut = 0; cut <= text.length; cut++) {
      const { entries, end } = run(split(text, [cut]));
      expect(entries).toEqual([{ a: 1 }]);
      expect(end.creator).toEqual({ name: 'X' });
    }
  });

  it('drops a huge response body without keeping it', () => {
    const body = 'x'.repeat(5_000_000);
    const text = `{"log":{"entries":[{"request":{"url":"https://e.com/"},"response":{"status":200,"content":{"size":5000000,"text":"${body}"}}}]}}`;
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += 65_536) chunks.push(text.slice(at, at + 65_536));
    const { entries } = run(chunks);
    expect(entries).toEqual([{ request: { url: 'https://e.com/' }, response: { status: 200, content: { size: 5_000_000, text: null } } }]);
  });

  it('accepts an empty entries list and empty objects', () => {
    expect(run(['{"log":{"entries":[]}}']).end.entries).toBe(0);
    expect(run(['{ "log" : { "entries" : [ {} , { } ] , "pages" : [ ] } } \n']).entries).toEqual([{}, {}]);
  });

  describe('errors, as parseHar words them', () => {
    it('an empty file', () => {
      expect(failure(['']).error.code).toBe('empty');
      expect(failure([' \n ', '\t']).error.message).toBe('The file is empty.');
    });

    it('not a JSON object', () => {
      for (const text of ['[1,2]', '"log"', 'hello', '<html>']) {
        const { error } = failure([text]);
        expect(error.code).toBe('not_har');
        expect(error.message).toBe('This is not a HAR file: a HAR file is a JSON object starting with "{".');
      }
    });

    it('JSON without log.entries: the not-a-har.json fixture and others', () => {
      for (const text of [
        fixture('not-a-har.json'),
        '{}',
        '{"log":[]}',
        '{"log":{"entries":{}}}',
        '{"log":{"entries":"none"}}',
        '{"entries":[{"a":1}]}',
        '{"other":{"log":{"entries":[]}}}',
      ]) {
        const { error } = failure([text]);
        expect(error.code).toBe('not_har');
        expect(error.message).toBe(
          'This is JSON but not a HAR file: it has no "log.entries" list. Export it from the browser devtools Network panel ("Save all as HAR").',
        );
      }
    });

    it('a truncated file: the truncated.har fixture, and a break after some entries', () => {
      const truncated = failure([fixture('truncated.har')]);
      expect(truncated.error.code).toBe('invalid_json');
      expect(truncated.error.message).toBe(
        'The file is not valid JSON (it ends in the middle of the data, after 0 complete entries). Was the export interrupted?',
      );
      const text = JSON.stringify(tricky);
      const cut = text.indexOf('"startedDateTime":"2025-03-14T09:26:54');
      const broken = failure([text.slice(0, cut + 10)]);
      expect(broken.entries).toEqual(trickyExpected.slice(0, 1));
      expect(broken.error.message).toMatch(/^The file is not valid JSON \(it ends in the middle of the data, after 1 complete entry\)/);
    });

    it('broken syntax anywhere', () => {
      for (const text of [
        '{"log":{"entries":[{"a":1}}]}}',
        '{"log":{"entries":[{"a":1},]}}',
        '{"log":{"entries":[{"a":tru}]}}',
        '{"log":{"entries":[],"pages":[01]}}',
        '{"log":{"entries":[],"pages":[nul]}}',
        '{"log" {"entries":[]}}',
        '{"log":{"entries":[]}}}',
        '{"log":{"entries":[]}} x',
        '{"log":{"entries":[{"a":"\\x"}]}}',
        '{"log":{"entries":[{"a":1 "b":2}]}}',
        "{'log':{}}",
      ]) {
        const { error } = failure([text]);
        expect([text, error.code]).toEqual([text, 'invalid_json']);
        expect(error.message).toMatch(/^The file is not valid JSON \(.+\)\. Was the export interrupted\?$/);
      }
    });
  });
});
