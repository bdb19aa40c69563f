import { metaLabel } from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';

/**
 * Meta (Facebook) pixel: `https://www.facebook.com/tr/?id=…&ev=PageView&dl=…` as an image GET, or a
 * POST (beacon / form) with the same parameters in a URL-encoded or multipart body. Custom data
 * arrives as `cd[value]`, `cd[currency]`, `cd[contents]` (JSON) …
 */
function multipartPairs(body: string): Pairs | null {
  const boundary = /^--([^\r\n]+)\r?\n/.exec(body);
  if (!boundary) return null;
  const pairs: Pairs = [];
  for (const part of body.split(`--${boundary[1]}`)) {
    const name = /name="([^"]+)"/.exec(part);
    if (!name) continue;
    const valueStart = part.search(/\r?\n\r?\n/);
    if (valueStart === -1) continue;
    const value = part
      .slice(valueStart)
      .replace(/^\r?\n\r?\n/, '')
      .replace(/\r?\n$/, '');
    pairs.push([name[1]!, value]);
  }
  return pairs;
}

export function decodeMeta(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/(^|\.)facebook\.com$/.test(request.host) || !/^\/tr\/?$/.test(request.path)) return null;
  let bodyPairs: Pairs = request.bodyParams ?? [];
  if (!bodyPairs.length && request.body) {
    bodyPairs = multipartPairs(request.body) ?? parsePairs(request.body);
  }
  const pairs: Pairs = [...queryPairs, ...bodyPairs];
  const value = (key: string) => lastValue(pairs, key);
  if (!value('id') && !value('ev')) return null;
  return [
    {
      ...baseOf(request),
      batch: null,
      vendor: 'meta',
      type: value('ev') ?? '(no event)',
      accountId: value('id') ?? null,
      page: value('dl') ?? request.referer,
      referrer: value('rl') ?? null,
      title: null,
      clientId: value('fbp') ?? null,
      params: pairs.map(([key, val]) => ({ key, name: metaLabel(key), value: val })),
      items: [],
      consent: null,
      body: request.body,
    },
  ];
}
