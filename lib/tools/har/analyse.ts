import { decodersFor, dispatch } from './dispatch.js';
import { type Pairs, splitUrl } from './query.js';
import type { CapturedRequest, HitDraft } from './request.js';
import { linkSecondary } from './secondary.js';
import { summarise } from './summary.js';
import type { AnalysisProgress, HarAnalysis, Hit } from './types.js';
import { checkAcross, checkHit, WarningCollector } from './warnings.js';

/** The part of HAR 1.2 the analyser reads (http://www.softwareishard.com/blog/har-12-spec/). */
export interface HarEntry {
  startedDateTime?: string;
  request?: {
    method?: string;
    url?: string;
    headers?: Array<{ name?: string; value?: string }>;
    postData?: { mimeType?: string; text?: string; params?: Array<{ name?: string; value?: string }> };
  };
  response?: { status?: number };
}

export interface HarLog {
  log: { version?: string; creator?: { name?: string; version?: string }; entries: HarEntry[] };
}

export type HarErrorCode = 'invalid_json' | 'not_har' | 'empty';

/** A file that cannot be analysed, with a message meant for the person who dropped it. */
export class HarError extends Error {
  constructor(
    readonly code: HarErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HarError';
  }
}

/** Checks the shape of an already parsed value: `{ log: { entries: [...] } }`. */
export function assertHar(value: unknown): asserts value is HarLog {
  const log = (value as { log?: unknown } | null)?.log as { entries?: unknown } | undefined;
  if (typeof value !== 'object' || value === null || typeof log !== 'object' || log === null || !Array.isArray(log.entries)) {
    throw new HarError(
      'not_har',
      'This is JSON but not a HAR file: it has no "log.entries" list. Export it from the browser devtools Network panel ("Save all as HAR").',
    );
  }
}

/** JSON.parse with HAR-specific errors. */
export function parseHar(text: string): HarLog {
  const trimmed = text.trimStart();
  if (!trimmed) throw new HarError('empty', 'The file is empty.');
  if (trimmed[0] !== '{') throw new HarError('not_har', 'This is not a HAR file: a HAR file is a JSON object starting with "{".');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    throw new HarError(
      'invalid_json',
      `The file is not valid JSON (${error instanceof Error ? error.message : String(error)}). Was the export interrupted?`,
    );
  }
  assertHar(value);
  return value;
}

function header(entry: HarEntry, name: string): string | null {
  for (const each of entry.request?.headers ?? []) if (each.name?.toLowerCase() === name) return each.value ?? null;
  return null;
}

/** A form body the exporter only kept parsed, written out again (the decoders read either). */
function joinParams(params: Pairs): string {
  return params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

function captured(entry: HarEntry, entryIndex: number, url: string, split: ReturnType<typeof splitUrl>): CapturedRequest {
  const { host, path, query } = split;
  const postData = entry.request?.postData;
  const bodyParams: Pairs | null = postData?.params?.length
    ? postData.params.map((param) => [param.name ?? '', param.value ?? ''] as [string, string])
    : null;
  const text = typeof postData?.text === 'string' && postData.text ? postData.text : null;
  const time = entry.startedDateTime ?? '';
  const timeMs = Date.parse(time);
  return {
    entryIndex,
    method: (entry.request?.method ?? 'GET').toUpperCase(),
    url,
    host,
    path,
    query,
    body: text ?? (bodyParams ? joinParams(bodyParams) : null),
    bodyParams,
    status: typeof entry.response?.status === 'number' ? entry.response.status : 0,
    time,
    timeMs: Number.isNaN(timeMs) ? 0 : timeMs,
    referer: header(entry, 'referer'),
  };
}

/**
 * What decodeEntry reads from one HAR entry (its request, status and start time), or null when the
 * entry cannot be an analytics hit (no decoder knows its host or URL: dispatch.ts). Far smaller
 * than the entry: the stream analysis keeps this for each analytics entry and decodes it again when
 * the hits are put in order (stream-analyse.ts).
 */
export function captureEntry(entry: HarEntry, entryIndex: number): CapturedRequest | null {
  const url = entry.request?.url;
  if (typeof url !== 'string') return null;
  const split = splitUrl(url);
  if (!decodersFor(split.host, url)) return null;
  return captured(entry, entryIndex, url, split);
}

/** Decodes one HAR entry into zero, one or several hits (batched requests). */
export function decodeEntry(entry: HarEntry, entryIndex: number): HitDraft[] {
  const request = captureEntry(entry, entryIndex);
  return request ? decodeRequest(request) : [];
}

/**
 * Decodes one request (of a HAR entry: captureEntry, or captured by the browser extension) into
 * zero, one or several hits. A request to an endpoint a decoder knows always gives at least one:
 * marked `invalid` when it cannot be read as a valid hit.
 */
export function decodeRequest(request: CapturedRequest): HitDraft[] {
  return dispatch(request);
}

export interface AnalyseOptions {
  onProgress?: (progress: AnalysisProgress) => void;
  /** Report progress every this many entries (default 500). */
  progressEvery?: number;
  /** Stop early when it returns true (checked with each progress report). */
  cancelled?: () => boolean;
}

export class AnalysisCancelled extends Error {
  constructor() {
    super('The analysis was cancelled.');
    this.name = 'AnalysisCancelled';
  }
}

/** Decodes every analytics hit of a parsed HAR, then checks them and summarises. */
export function analyseHar(har: HarLog, options: AnalyseOptions = {}): HarAnalysis {
  const entries = har.log.entries;
  const every = options.progressEvery ?? 500;
  const hits: Hit[] = [];
  const analyticsEntries = new Set<number>();
  // HAR exporters write entries in start order, but merged captures may not be: sort by time,
  // keeping file order for ties, so duplicates and sequences read in the order they happened.
  const order = entries.map((_, index) => index);
  const times = entries.map((entry) => Date.parse(entry.startedDateTime ?? '') || 0);
  order.sort((a, b) => times[a]! - times[b]! || a - b);
  for (let k = 0; k < order.length; k++) {
    const index = order[k]!;
    if (k % every === 0) {
      if (options.cancelled?.()) throw new AnalysisCancelled();
      options.onProgress?.({ stage: 'analysing', done: k, total: entries.length });
    }
    const drafts = decodeEntry(entries[index]!, index);
    if (drafts.length) analyticsEntries.add(index);
    for (const draft of drafts) {
      // The draft becomes the hit (no copy: a capture can hold tens of thousands of them).
      const hit = draft as Hit;
      hit.id = hits.length;
      hit.warningIds = [];
      hits.push(hit);
    }
  }
  linkSecondary(hits);
  const collector = new WarningCollector();
  for (const hit of hits) checkHit(hit, collector);
  checkAcross(hits, collector);
  options.onProgress?.({ stage: 'analysing', done: entries.length, total: entries.length });
  const creator = har.log.creator?.name ? `${har.log.creator.name} ${har.log.creator.version ?? ''}`.trim() : null;
  return {
    hits,
    warnings: collector.warnings,
    summary: summarise(hits, collector.warnings, { entries: entries.length, analyticsEntries: analyticsEntries.size, creator }),
  };
}
