import type { Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';

/**
 * Tealium iQ Tag Management, as its snippet loads it:
 * `https://tags.tiqcdn.com/utag/<account>/<profile>/<environment>/utag.js` (also tags-eu.tiqcdn.com,
 * and a self-hosted or first-party CDN copy with the same path). utag.js is a "container loaded"
 * entry with the id `<account>/<profile>`; `utag.sync.js` (the synchronous part, loaded in the head)
 * and the tag files utag.js loads (`utag.<tag id>.js`) are secondary. An environment other than
 * prod on a page is warned about.
 * Sources: Tealium's "Universal Tag (utag.js)" and "Environments" documentation.
 */
const TEALIUM_IQ_LABELS: Record<string, string> = {
  '(account)': 'Account',
  '(profile)': 'Profile',
  '(environment)': 'Environment (prod, qa, dev …)',
  '(file)': 'File',
  utv: 'Tag template version',
  cb: 'Cache buster',
};

const tealiumLabel = labeller(TEALIUM_IQ_LABELS);

const PATH = /\/utag\/([^/]+)\/([^/]+)\/([^/]+)\/(utag(?:\.(sync|\d+))?\.js)$/i;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const match = PATH.exec(request.path);
  if (!match) return null;
  const [, account, profile, environment, file, part] = match;
  const id = `${account}/${profile}`;
  const params = [
    requestKind(
      part === 'sync' ? 'utag.sync.js (synchronous part)' : part ? `Tag file ${file} loaded by utag.js` : 'utag.js (the container)',
    ),
    { key: '(account)', name: tealiumLabel('(account)'), value: account! },
    { key: '(profile)', name: tealiumLabel('(profile)'), value: profile! },
    { key: '(environment)', name: tealiumLabel('(environment)'), value: environment! },
    { key: '(file)', name: tealiumLabel('(file)'), value: file! },
    ...named(query, tealiumLabel),
  ];
  const common = { vendor: 'tealium-iq' as const, accountId: id, params, container: true, body: null };
  if (part) {
    return [
      hitOf(request, {
        ...common,
        type: part === 'sync' ? 'sync file loaded' : `tag ${part} loaded`,
        secondary:
          part === 'sync'
            ? 'Tealium utag.sync.js: the synchronous part of the container'
            : `Tealium tag file utag.${part}.js, loaded by the container`,
      }),
    ];
  }
  return [hitOf(request, { ...common, type: 'container loaded' })];
}

export const tealiumIq: VendorDecoder<'tealium-iq'> = {
  id: 'tealium-iq',
  label: 'Tealium iQ',
  kind: 'tag-manager',
  hosts: ['tiqcdn.com'],
  anyHost: /\/utag\/[^/?#]+\/[^/?#]+\/[^/?#]+\/utag(?:\.sync|\.\d+)?\.js/i,
  accountLabel: 'account/profile',
  labels: TEALIUM_IQ_LABELS,
  decode,
  check(hit, warn) {
    const environment = paramOf(hit, '(environment)');
    if (environment && environment !== 'prod') {
      warn('non_production_container', 'warning', `Tealium ${environment} environment on this page: visitors get an unpublished version`);
    }
  },
};
