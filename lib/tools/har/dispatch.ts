import { DECODERS } from './decoders/index.js';
import { parsePairs } from './query.js';
import type { CapturedRequest, HitDraft } from './request.js';
import type { VendorDecoder } from './vendor.js';

/*
 * Which decoders to ask about a request. A capture holds thousands of requests and a few dozen
 * vendors: running every vendor's matcher on every request would make the analysis slower with each
 * vendor added. Instead each request costs a few map lookups (its host and the host's parent
 * domains, in an index of the hosts the decoders declare) and one regular expression (all decoders'
 * first-party patterns in one), and only the decoders found that way are asked.
 */

type AnyDecoder = VendorDecoder;

const ALL: readonly AnyDecoder[] = DECODERS;
const order = new Map<AnyDecoder, number>(ALL.map((decoder, index) => [decoder, index]));
const byHost = new Map<string, AnyDecoder[]>();
for (const decoder of ALL) {
  for (const host of decoder.hosts ?? []) {
    const list = byHost.get(host) ?? [];
    list.push(decoder);
    byHost.set(host, list);
  }
}
const anyHostDecoders = ALL.filter((decoder) => decoder.anyHost);
/** Every decoder's first-party pattern in one (case-insensitive: a superset of each). */
const ANY_HOST = new RegExp(anyHostDecoders.map((decoder) => `(?:${decoder.anyHost!.source})`).join('|'), 'i');

function add(found: AnyDecoder[], list: AnyDecoder[] | undefined) {
  if (!list) return;
  for (const decoder of list) if (!found.includes(decoder)) found.push(decoder);
}

/**
 * The decoders that may claim a request to `host` (lower case, no port) at `url`, in registry order;
 * null when none. A host is looked up whole, then each parent domain ("a.b.example.com",
 * "b.example.com", "example.com", "com"), and each label followed by ".*" for the decoders that
 * declared a name under any public suffix ("google.*").
 */
export function decodersFor(host: string, url: string): AnyDecoder[] | null {
  const found: AnyDecoder[] = [];
  let at = 0;
  for (;;) {
    const suffix = at === 0 ? host : host.slice(at);
    add(found, byHost.get(suffix));
    const dot = host.indexOf('.', at);
    if (dot === -1) break;
    add(found, byHost.get(`${host.slice(at, dot)}.*`));
    at = dot + 1;
  }
  if (ANY_HOST.test(url)) {
    for (const decoder of anyHostDecoders) if (decoder.anyHost!.test(url)) add(found, [decoder]);
  }
  if (found.length === 0) return null;
  if (found.length > 1) found.sort((a, b) => order.get(a)! - order.get(b)!);
  return found;
}

/** Decodes a request with the first decoder that claims it: zero, one or several hits. */
export function dispatch(request: CapturedRequest): HitDraft[] {
  // A CORS preflight (or a HEAD) carries no data: the request it precedes is the hit.
  const method = request.method.toUpperCase();
  if (method === 'OPTIONS' || method === 'HEAD') return [];
  const decoders = decodersFor(request.host, request.url);
  if (!decoders) return [];
  const query = parsePairs(request.query);
  for (const decoder of decoders) {
    const drafts = decoder.decode(request, query);
    if (!drafts) continue;
    for (const draft of drafts) draft.kind = decoder.kind;
    return drafts;
  }
  return [];
}
