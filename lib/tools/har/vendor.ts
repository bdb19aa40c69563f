import type { Pairs } from './query.js';
import { baseOf, type CapturedRequest, type HitDraft } from './request.js';
import type { ConsentState, DecodedItem, DecodedParam, Hit, Severity, VendorKind, WarningCode } from './types.js';

/** How a vendor's own checks report a finding on a hit (warnings.ts adds the hit and page). */
export type Warn = (code: WarningCode, severity: Severity, message: string) => void;

/**
 * One vendor's decoder: a file in decoders/ exporting one of these, registered by one line in
 * decoders/index.ts. The dispatcher (dispatch.ts) asks a decoder about a request only when the
 * request's host is one of its `hosts` (or a subdomain of one), or when its `anyHost` pattern matches
 * the URL, so the thousands of ordinary requests in a capture cost a few map lookups each.
 */
export interface VendorDecoder<Id extends string = string> {
  readonly id: Id;
  /** The vendor's name as people know it: "Adobe Analytics", "Piwik PRO". */
  readonly label: string;
  readonly kind: VendorKind;
  /**
   * Hosts the vendor collects on; each also covers its subdomains ("omtrdc.net" covers
   * "example.sc.omtrdc.net"). A name ending in ".*" stands for the name under any public suffix
   * ("google.*": google.com, google.co.uk, google.com.my).
   */
  readonly hosts?: readonly string[];
  /**
   * For endpoints on any host (first-party domains, server-side containers, self-hosted tools): a
   * pattern over the URL that makes the request worth asking about. Keep it specific: it is tested
   * on every request of a capture (all decoders' patterns in one regular expression).
   */
  readonly anyHost?: RegExp;
  /**
   * What the account id of a hit is called ("report suite", "site ID"): a hit of this vendor
   * without one is warned about (vendor_missing_id). Unset for vendors whose requests carry none.
   */
  readonly accountLabel?: string;
  /** The parameters it names (key → readable name); docs/decoders.md counts them. */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * The request's hits, or null when the request is not this vendor's. A request to an endpoint the
   * decoder knows is never answered with null or []: when it cannot be read as a valid hit, the
   * answer is a hit marked `invalid`, with the reason and the raw parameters.
   */
  decode(request: CapturedRequest, query: Pairs): HitDraft[] | null;
  /**
   * The vendor's own checks on one of its hits (never called for secondary requests or invalid
   * hits): what its documentation makes required, values it rejects.
   */
  check?(hit: Hit, warn: Warn): void;
}

/** The value of parameter `key` of a decoded hit (the last one sent), or undefined. */
export function paramOf(hit: Hit, key: string): string | undefined {
  let found: string | undefined;
  for (const param of hit.params) if (param.key === key) found = param.value;
  return found;
}

/** What a decoder fills in; the rest comes from the request. */
export interface HitFields {
  vendor: HitDraft['vendor'];
  type: string;
  accountId: string | null | undefined;
  params: DecodedParam[];
  page?: string | null;
  referrer?: string | null;
  title?: string | null;
  clientId?: string | null;
  items?: DecodedItem[];
  consent?: ConsentState | null;
  /** Defaults to the request's body. */
  body?: string | null;
  batch?: HitDraft['batch'];
  secondary?: string;
  invalid?: HitDraft['invalid'];
  formatNote?: string;
  container?: boolean;
}

/** A hit of `request`. The page falls back to the request's Referer, as for Google's hits. */
export function hitOf(request: CapturedRequest, fields: HitFields): HitDraft {
  const draft: HitDraft = {
    ...baseOf(request),
    batch: fields.batch ?? null,
    vendor: fields.vendor,
    type: fields.type || '(no event)',
    accountId: fields.accountId || null,
    page: fields.page || request.referer,
    referrer: fields.referrer || null,
    title: fields.title || null,
    clientId: fields.clientId || null,
    params: fields.params,
    items: fields.items ?? [],
    consent: fields.consent ?? null,
    body: fields.body === undefined ? request.body : fields.body,
  };
  if (fields.secondary) draft.secondary = fields.secondary;
  if (fields.invalid) draft.invalid = fields.invalid;
  if (fields.formatNote) draft.formatNote = fields.formatNote;
  if (fields.container) draft.container = true;
  return draft;
}

/** Pairs as decoded parameters, each named by `label` (or by its own key). */
export function named(pairs: Pairs, label: (key: string) => string): DecodedParam[] {
  const params: DecodedParam[] = [];
  for (const [key, value] of pairs) params.push({ key, name: label(key), value });
  return params;
}

/** A parameter the decoder adds to say what kind of request it was (shown first). */
export function requestKind(value: string): DecodedParam {
  return { key: '(request)', name: 'Request kind', value };
}

/**
 * A request to a known endpoint that is not a valid hit: kept, with the reason and what could be read
 * of it (the raw query and body parameters), so that it is never hidden.
 */
export function invalidHit(
  request: CapturedRequest,
  fields: Omit<HitFields, 'invalid' | 'type'> & { type?: string; reason: string; kind?: 'malformed' | 'older-format' },
): HitDraft {
  const { reason, kind, ...rest } = fields;
  return hitOf(request, {
    ...rest,
    type: rest.type || (kind === 'older-format' ? '(older format)' : '(malformed)'),
    invalid: { kind: kind ?? 'malformed', reason },
  });
}

/** Label lookup: the table first, then each of `rules` in order, then the key itself. */
export function labeller(
  labels: Readonly<Record<string, string>>,
  ...rules: Array<(key: string) => string | undefined>
): (key: string) => string {
  const cache = new Map<string, string>();
  return (key) => {
    let name = cache.get(key);
    if (name !== undefined) return name;
    name = labels[key];
    if (name === undefined) {
      for (const rule of rules) {
        name = rule(key);
        if (name !== undefined) break;
      }
    }
    name ??= key;
    if (cache.size < 10_000) cache.set(key, name);
    return name;
  };
}
