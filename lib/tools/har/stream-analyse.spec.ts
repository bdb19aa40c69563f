import { buildLargeHar } from '../../../scripts/fixtures/har-large.mjs';
import { entry, fixture } from '../../../test/fixtures/har/helpers.js';
import { analyseHar, HarError, parseHar } from './analyse.js';
import { analyseHarChunks, HarStreamAnalysis } from './stream-analyse.js';

/** The text in pieces of `size` characters. */
function* pieces(text: string, size: number) {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

describe('analyseHarChunks', () => {
  it('gives the result of analyseHar on every fixture, whatever the chunk size', () => {
    for (const name of ['shop-session.har', 'ga4-batched.har', 'consent-denied.har', 'multi-vendor.har']) {
      const text = fixture(name);
      const whole = analyseHar(parseHar(text));
      expect(whole.hits.length).toBeGreaterThan(0);
      for (const size of [1, 7, 64, 1000, text.length]) {
        const { analysis, end } = analyseHarChunks(pieces(text, size));
        expect(analysis).toEqual(whole);
        expect(end.entries).toBe(whole.summary.entries);
      }
    }
  });

  it('gives the result of analyseHar on a generated capture, entries out of time order included', () => {
    const large = buildLargeHar({ entries: 2_000, targetBytes: 2 * 1024 * 1024 });
    const har = parseHar(large.text);
    // Merged captures are not in start order: swap some entries around.
    const list = har.log.entries;
    for (let index = 0; index + 37 < list.length; index += 91) [list[index], list[index + 37]] = [list[index + 37]!, list[index]!];
    const text = JSON.stringify(har);
    const whole = analyseHar(parseHar(text));
    expect(whole.hits).toHaveLength(large.hits);
    const { analysis } = analyseHarChunks(pieces(text, 65_536));
    expect(analysis).toEqual(whole);
    // Keeping only the requests (all of them, or those after the first 500 hits) and decoding them
    // again at the end gives the same result, in the same order.
    for (const keepDecoded of [0, 500]) expect(analyseHarChunks(pieces(text, 65_536), { keepDecoded }).analysis).toEqual(whole);
  });

  it('keeps only the requests of the hits beyond keepDecoded, with the same result on every fixture', () => {
    for (const name of ['shop-session.har', 'ga4-batched.har', 'consent-denied.har', 'real-world-tags.har', 'multi-vendor.har']) {
      const text = fixture(name);
      const whole = analyseHar(parseHar(text));
      for (const keepDecoded of [0, 1, 3]) expect(analyseHarChunks([text], { keepDecoded }).analysis).toEqual(whole);
    }
    // While reading, the hits are counted all the same.
    const analysis = new HarStreamAnalysis({ keepDecoded: 0 });
    const { log } = parseHar(fixture('ga4-batched.har'));
    log.entries.forEach((each, index) => analysis.add(each, index));
    const hits = analyseHar(parseHar(fixture('ga4-batched.har'))).hits.length;
    expect(hits).toBeGreaterThan(1);
    expect(analysis.hits).toBe(hits);
    expect(analysis.finish(log).hits).toHaveLength(hits);
  });

  it('counts entries that are not objects without decoding them', () => {
    const text = JSON.stringify({
      log: { entries: [null, 3, entry('https://www.google-analytics.com/g/collect?v=2&tid=G-1&cid=1.2&en=page_view')] },
    });
    const { analysis } = analyseHarChunks([text]);
    expect(analysis.summary.entries).toBe(3);
    expect(analysis.hits.map((hit) => [hit.entryIndex, hit.type])).toEqual([[2, 'page_view']]);
  });

  it('throws the errors of parseHar', () => {
    expect(() => analyseHarChunks([fixture('not-a-har.json')])).toThrow(HarError);
    expect(() => analyseHarChunks([fixture('truncated.har')])).toThrow('The file is not valid JSON');
  });

  it('keeps light hits with finishLight, and decodes a hit whole again on demand', () => {
    for (const name of ['shop-session.har', 'ga4-batched.har', 'real-world-tags.har', 'multi-vendor.har']) {
      const text = fixture(name);
      const whole = analyseHar(parseHar(text));
      const analysis = new HarStreamAnalysis({ keepDecoded: 0 });
      const { log } = parseHar(text);
      log.entries.forEach((each, index) => analysis.add(each, index));
      const { analysis: light, detail } = analysis.finishLight(log);
      // Everything but the parameters and items is there, the warnings and summary included.
      expect(light.summary).toEqual(whole.summary);
      expect(light.warnings).toEqual(whole.warnings);
      expect(light.hits).toEqual(whole.hits.map((hit) => ({ ...hit, params: [], items: [] })));
      expect(whole.hits.some((hit) => hit.params.length > 0)).toBe(true);
      // Each hit whole again, batched ones (several hits of one request) included.
      for (const hit of whole.hits) expect(detail(hit.id)).toEqual(hit);
      expect(detail(whole.hits.length)).toBeNull();
    }
  });

  it('analyses the entries read so far when the file breaks off', () => {
    const text = fixture('shop-session.har');
    const analysis = new HarStreamAnalysis();
    const whole = analyseHar(parseHar(text));
    const { log } = parseHar(text);
    const half = Math.floor(log.entries.length / 2);
    log.entries.slice(0, half).forEach((each, index) => analysis.add(each, index));
    const partial = analysis.finish(log);
    expect(partial).toEqual(analyseHar({ log: { ...log, entries: log.entries.slice(0, half) } }));
    expect(partial.hits.length).toBeGreaterThan(0);
    expect(partial.hits.length).toBeLessThan(whole.hits.length);
  });
});
