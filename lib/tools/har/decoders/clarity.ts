import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, requestKind, type VendorDecoder } from '../vendor.js';
import { field, isObject, looksCompressed, tryJson } from './shared.js';

/**
 * Microsoft Clarity. The tag (`https://www.clarity.ms/tag/<project id>`, also `/tag/uet/<UET tag id>`
 * for the Microsoft Advertising integration) is a "tag loaded" entry; the library it loads
 * (`/s/<version>/clarity.js`) and the cookie sync (`c.clarity.ms/c.gif`) are secondary. The recording
 * is uploaded in sequence to `https://<region>.clarity.ms/collect` (also `/<region>/collect`): a JSON
 * body `{"e":[version, sequence, start, duration, project id, user id, session id, page number,
 * upload type, last],"a":[analytics events…],"p":[playback events…]}`, gzip-compressed for every
 * upload but the last (which goes by sendBeacon): a compressed upload is shown as such, its envelope
 * cannot be read from the capture.
 * Sources: Microsoft Clarity's setup documentation (the tracking code) and its open-source client,
 * clarity-js (packages/clarity-js/src/data/envelope.ts and upload.ts, MIT).
 */
const CLARITY_LABELS: Record<string, string> = {
  'e.version': 'Library version',
  'e.sequence': 'Upload sequence',
  'e.start': 'Start (ms since page load)',
  'e.duration': 'Duration (ms)',
  'e.projectId': 'Project ID',
  'e.userId': 'User ID (_clck)',
  'e.sessionId': 'Session ID (_clsk)',
  'e.pageNum': 'Page number in the session',
  'e.upload': 'Upload type (0 XHR, 1 beacon)',
  'e.end': 'Last upload of the page',
  'a.count': 'Analytics events in this upload',
  'p.count': 'Playback events in this upload',
  '(project)': 'Project ID',
  '(library)': 'Library file',
};

const clarityLabel = labeller(CLARITY_LABELS);

const ENVELOPE = ['version', 'sequence', 'start', 'duration', 'projectId', 'userId', 'sessionId', 'pageNum', 'upload', 'end'];

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const path = request.path;
  const tag = /^\/tag\/(?:(uet)\/)?([^/]+)\/?$/.exec(path);
  if (tag) {
    return [
      hitOf(request, {
        vendor: 'clarity',
        type: 'tag loaded',
        accountId: tag[2],
        params: [
          requestKind(tag[1] ? 'Clarity tag for a UET tag ID' : 'Clarity tag'),
          { key: '(project)', name: clarityLabel('(project)'), value: tag[2]! },
        ],
        container: true,
        body: null,
      }),
    ];
  }
  if (/^\/s\/[^/]+\/clarity\.js$/.test(path) || (request.host === 'c.clarity.ms' && /^\/c\.gif$/.test(path))) {
    const library = path.endsWith('.js');
    return [
      hitOf(request, {
        vendor: 'clarity',
        type: library ? 'library loaded' : 'cookie sync',
        accountId: null,
        params: [
          requestKind(library ? 'Clarity library' : 'Cookie sync (c.gif)'),
          { key: '(library)', name: clarityLabel('(library)'), value: path },
        ],
        secondary: library ? 'The library the Clarity tag loads' : 'Clarity cookie sync: not a recording',
        ...(library ? { container: true } : {}),
        body: null,
      }),
    ];
  }
  if (!/^\/(?:[a-z0-9-]+\/)?collect\/?$/i.test(path)) return null;
  const json = tryJson(request.body);
  if (!isObject(json) || !Array.isArray(json.e)) {
    const compressed = looksCompressed(request.body) || (request.body !== null && !request.body.trim().startsWith('{'));
    return [
      hitOf(request, {
        vendor: 'clarity',
        type: 'recording upload',
        accountId: lastValue(query, 'projectId') ?? null,
        params: [
          requestKind(
            compressed ? 'Recording upload, gzip-compressed (not readable in a capture)' : 'Recording upload (no body in the capture)',
          ),
        ],
        body: compressed ? '(compressed body)' : request.body,
      }),
    ];
  }
  const envelope = json.e;
  const params = ENVELOPE.map((name, index) => ({
    key: `e.${name}`,
    name: clarityLabel(`e.${name}`),
    value: field(envelope[index]) ?? '',
  }));
  params.push({ key: 'a.count', name: clarityLabel('a.count'), value: String(Array.isArray(json.a) ? json.a.length : 0) });
  params.push({ key: 'p.count', name: clarityLabel('p.count'), value: String(Array.isArray(json.p) ? json.p.length : 0) });
  const sequence = field(envelope[1]);
  return [
    hitOf(request, {
      vendor: 'clarity',
      type: `recording upload${sequence ? ` #${sequence}` : ''}${field(envelope[9]) === '1' ? ' (last)' : ''}`,
      accountId: field(envelope[4]),
      clientId: field(envelope[5]),
      params: [requestKind('Recording upload (JSON)'), ...params],
    }),
  ];
}

export const clarity: VendorDecoder<'clarity'> = {
  id: 'clarity',
  label: 'Microsoft Clarity',
  kind: 'experience',
  hosts: ['clarity.ms'],
  labels: CLARITY_LABELS,
  decode,
};
