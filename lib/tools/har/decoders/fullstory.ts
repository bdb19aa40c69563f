import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * FullStory: the snippet loads `edge.fullstory.com/s/fs.js` (a "tag loaded" entry; the org id is in
 * the snippet, not the URL); a page starts with `POST https://rs.fullstory.com/rec/page` (JSON with
 * `OrgId`, `Url`, `Referrer` …) and the recording follows in `…/rec/bundle/v2?OrgId=…&UserId=…&SessionId=…
 * &PageId=…&Seq=…` (compressed: shown, not decoded).
 * Sources: FullStory's "Installing the FullStory script" and its network requirements (rs.fullstory.com,
 * edge.fullstory.com), and captured requests.
 */
const FULLSTORY_LABELS: Record<string, string> = {
  OrgId: 'Org ID',
  UserId: 'User ID',
  SessionId: 'Session ID',
  PageId: 'Page ID',
  Seq: 'Bundle sequence',
  ClientTime: 'Client time',
  Url: 'Page URL',
  Referrer: 'Referrer',
  Base: 'Base URL',
  Width: 'Viewport width',
  Height: 'Viewport height',
  ScreenWidth: 'Screen width',
  ScreenHeight: 'Screen height',
  IsNewSession: 'New session',
};

const fullstoryLabel = labeller(FULLSTORY_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (/^\/s\/fs\.js$/.test(request.path)) {
    return [
      hitOf(request, {
        vendor: 'fullstory',
        type: 'tag loaded',
        accountId: null,
        params: [requestKind('FullStory script')],
        container: true,
        body: null,
      }),
    ];
  }
  const match = /^\/rec\/(page|bundle)(?:\/v\d+)?\/?$/.exec(request.path);
  if (!match) return null;
  const json = tryJson(request.body);
  const pairs: Pairs = [...query];
  if (isObject(json)) flatten(json, '', 'dot', pairs);
  const value = (key: string) => lastValue(pairs, key);
  const page = match[1] === 'page';
  return [
    hitOf(request, {
      vendor: 'fullstory',
      type: page ? 'page start' : 'session recording',
      accountId: value('OrgId') ?? (isObject(json) ? field(json.OrgId) : undefined),
      page: value('Url'),
      referrer: value('Referrer'),
      clientId: value('UserId'),
      params: [requestKind(page ? 'Page start (/rec/page)' : 'Recording bundle (/rec/bundle)'), ...named(pairs, fullstoryLabel)],
      ...(page || !request.body || json ? {} : { body: '(compressed body)' }),
    }),
  ];
}

export const fullstory: VendorDecoder<'fullstory'> = {
  id: 'fullstory',
  label: 'FullStory',
  kind: 'experience',
  hosts: ['fullstory.com'],
  accountLabel: 'org ID',
  labels: FULLSTORY_LABELS,
  decode,
};
