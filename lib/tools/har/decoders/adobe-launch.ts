import type { Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';

/**
 * Adobe Experience Platform Tags (formerly Adobe Launch) libraries, as their embed code loads them:
 * `https://assets.adobedtm.com/<company>/<property>/launch-<environment id>[-development|-staging][.min].js`
 * (self-hosted libraries keep the file name on any host). Each is a "container loaded" entry whose
 * id is the environment's library name; a development or staging library on a page is warned about.
 * The rule component files the library loads (`RC<hash>-source.min.js`) are secondary. Dynamic Tag
 * Manager, Launch's predecessor (`satelliteLib-<hash>[-staging].js`, retired in 2021), is still found
 * on old sites: a container entry with an "older format" note.
 * Sources: Adobe's "Embed codes" and "Environments" documentation for Tags, and Adobe's DTM sunset
 * notice.
 */
const ADOBE_LAUNCH_LABELS: Record<string, string> = {
  '(library)': 'Library file',
  '(environment)': 'Environment (production, staging, development)',
  '(company)': 'Company ID',
  '(property)': 'Property ID',
};

const launchLabel = labeller(ADOBE_LAUNCH_LABELS);

const LAUNCH = /\/(launch-(?:EN)?[0-9a-f]+?(?:-(development|staging))?)(?:\.min)?\.js$/i;
const DTM = /\/(satelliteLib-[0-9a-f]+?(-staging)?)\.js$/i;
const RULE = /\/(RC[0-9a-f]{16,}-source)(?:\.min)?\.js$/i;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const path = request.path;
  const segments = path.split('/').filter(Boolean);
  const rule = RULE.exec(path);
  if (rule && request.host.endsWith('adobedtm.com')) {
    return [
      hitOf(request, {
        vendor: 'adobe-launch',
        type: 'rule code loaded',
        accountId: segments.length >= 3 ? segments.slice(0, 2).join('/') : null,
        params: [
          requestKind('Rule component loaded by the tag library'),
          { key: '(library)', name: launchLabel('(library)'), value: rule[1]! },
        ],
        secondary: 'Rule code loaded by the Adobe tags library (not a container of its own)',
        container: true,
        body: null,
      }),
    ];
  }
  const launch = LAUNCH.exec(path);
  const dtm = launch ? null : DTM.exec(path);
  if (!launch && !dtm) return null;
  const environment = launch ? (launch[2]?.toLowerCase() ?? 'production') : dtm![2] ? 'staging' : 'production';
  const params = [
    requestKind(launch ? 'Adobe tags (Launch) library' : 'Dynamic Tag Manager library'),
    { key: '(library)', name: launchLabel('(library)'), value: (launch ?? dtm)![1]! },
    { key: '(environment)', name: launchLabel('(environment)'), value: environment },
    ...(segments.length >= 3 ? [{ key: '(company)', name: launchLabel('(company)'), value: segments[0]! }] : []),
    ...(launch && segments.length >= 3 ? [{ key: '(property)', name: launchLabel('(property)'), value: segments[1]! }] : []),
    ...named(query, launchLabel),
  ];
  return [
    hitOf(request, {
      vendor: 'adobe-launch',
      type: 'container loaded',
      accountId: (launch ?? dtm)![1]!.replace(/-(development|staging)$/i, ''),
      params,
      container: true,
      body: null,
      ...(dtm
        ? { formatNote: 'Older format: Adobe Dynamic Tag Manager (satelliteLib), retired in 2021 and replaced by Adobe tags (Launch)' }
        : {}),
    }),
  ];
}

export const adobeLaunch: VendorDecoder<'adobe-launch'> = {
  id: 'adobe-launch',
  label: 'Adobe tags (Launch)',
  kind: 'tag-manager',
  hosts: ['adobedtm.com'],
  anyHost: /\/launch-[0-9a-z-]+(?:\.min)?\.js|\/satelliteLib-[0-9a-f-]+\.js/i,
  accountLabel: 'library (environment) name',
  labels: ADOBE_LAUNCH_LABELS,
  decode,
  check(hit, warn) {
    const environment = paramOf(hit, '(environment)');
    if (environment && environment !== 'production') {
      warn('non_production_container', 'warning', `Adobe tags ${environment} library on this page: visitors get unpublished rules`);
    }
  },
};
