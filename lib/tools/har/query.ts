/** Query-string and URL helpers that never throw on the malformed input real captures contain. */

export type Pairs = Array<[string, string]>;

/** decodeURIComponent that keeps the raw text when the escape is malformed (`%E0%A4%A`). */
export function safeDecode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** `a=1&b=2&c` → [['a','1'],['b','2'],['c','']], in order, duplicates kept. */
export function parsePairs(query: string, separator = '&'): Pairs {
  const pairs: Pairs = [];
  if (!query) return pairs;
  for (const part of query.split(separator)) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : safeDecode(part.slice(eq + 1));
    if (key) pairs.push([key.trim(), value]);
  }
  return pairs;
}

export interface SplitUrl {
  host: string;
  path: string;
  query: string;
}

/** Host (lower-case, no port), path and query of an absolute URL, without the cost of `new URL`. */
export function splitUrl(url: string): SplitUrl {
  const schemeEnd = url.indexOf('://');
  // A protocol-relative URL (`//host/path`) as some exporters and tag templates write it.
  const rest = schemeEnd === -1 ? (url.startsWith('//') ? url.slice(2) : url) : url.slice(schemeEnd + 3);
  const hash = rest.indexOf('#');
  const noHash = hash === -1 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf('?');
  const beforeQuery = q === -1 ? noHash : noHash.slice(0, q);
  const query = q === -1 ? '' : noHash.slice(q + 1);
  const slash = beforeQuery.indexOf('/');
  const authority = slash === -1 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = slash === -1 ? '/' : beforeQuery.slice(slash);
  const host = authority.replace(/^.*@/, '').replace(/:\d+$/, '').toLowerCase();
  return { host, path, query };
}

/** Last value of `key` (later values win, as in the collectors). */
export function lastValue(pairs: Pairs, key: string): string | undefined {
  for (let i = pairs.length - 1; i >= 0; i--) if (pairs[i]![0] === key) return pairs[i]![1];
  return undefined;
}

/**
 * Shared pairs overridden/extended by per-event pairs: a key present in `own` replaces the shared
 * value (at the shared key's position), new keys are appended in their own order.
 */
export function mergePairs(shared: Pairs, own: Pairs): Pairs {
  const ownMap = new Map<string, string>();
  for (const [key, value] of own) ownMap.set(key, value);
  const sharedMap = new Map<string, string>();
  for (const [key, value] of shared) sharedMap.set(key, value);
  const merged: Pairs = [];
  const seen = new Set<string>();
  for (const [key] of shared) {
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push([key, ownMap.has(key) ? ownMap.get(key)! : sharedMap.get(key)!]);
  }
  for (const [key, value] of own) {
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push([key, value]);
  }
  return merged;
}
