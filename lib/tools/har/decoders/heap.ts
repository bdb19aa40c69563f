import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Heap: the snippet loads `cdn.heapanalytics.com/js/heap-<app id>.js` (a "tag loaded" entry); the
 * classic tracker sends page views to `https://heapanalytics.com/h?a=<app id>&u=<user>&v=<view>&s=<session>
 * &h=<path>&t=<title>&…` and events to `/api/track`; the current tracker (heap.js 5) posts to
 * `c.<region>.heap-api.com/api/capture/v2/…` in a binary format (shown, not decoded).
 * Sources: Heap's "Installation guide" and "Data sent to Heap" help, and captured requests.
 */
const HEAP_LABELS: Record<string, string> = {
  a: 'App ID (environment)',
  u: 'User ID',
  v: 'Page view ID',
  s: 'Session ID',
  b: 'Library (web)',
  tv: 'Tracker version',
  z: 'Request counter',
  h: 'Page path',
  d: 'Domain',
  t: 'Page title',
  q: 'Query string',
  r: 'Referrer',
  sw: 'Screen width',
  sh: 'Screen height',
  st: 'Time',
  k: 'Event properties',
  n: 'Event name',
  '(app)': 'App ID',
};

const heapLabel = labeller(HEAP_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const script = /^\/js\/heap-(\d+)\.js$/.exec(request.path);
  if (script) {
    return [
      hitOf(request, {
        vendor: 'heap',
        type: 'tag loaded',
        accountId: script[1],
        params: [requestKind('Heap snippet library')],
        container: true,
        body: null,
      }),
    ];
  }
  const capture = /^\/api\/capture\/v\d+\/([a-z]+)\/?$/.exec(request.path);
  if (capture && /heap-api\.com$/.test(request.host)) {
    return [
      hitOf(request, {
        vendor: 'heap',
        type: capture[1]!,
        accountId: null,
        params: [requestKind('heap.js 5 capture (binary body, not decoded)')],
        body: request.body ? '(binary body)' : null,
      }),
    ];
  }
  const match = /^\/(h|api\/track)\/?$/.exec(request.path);
  if (!match || !/(^|\.)heapanalytics\.com$/.test(request.host)) return null;
  const pairs = formPairs(request, query);
  const value = (key: string) => lastValue(pairs, key);
  const domain = value('d');
  return [
    hitOf(request, {
      vendor: 'heap',
      type: match[1] === 'h' ? 'pageview' : (value('n') ?? 'track'),
      accountId: value('a'),
      page: domain && value('h') ? `https://${domain}${value('h')}` : null,
      title: value('t'),
      referrer: value('r'),
      clientId: value('u'),
      params: [requestKind(match[1] === 'h' ? 'Page view (/h)' : 'Event (/api/track)'), ...named(pairs, heapLabel)],
    }),
  ];
}

export const heap: VendorDecoder<'heap'> = {
  id: 'heap',
  label: 'Heap',
  kind: 'analytics',
  hosts: ['heapanalytics.com', 'heap-api.com'],
  labels: HEAP_LABELS,
  decode,
};
