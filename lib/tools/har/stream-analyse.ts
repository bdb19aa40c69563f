import { captureEntry, decodeRequest, type HarEntry, type HarLog } from './analyse.js';
import type { CapturedRequest, HitDraft } from './request.js';
import { type HarStreamEnd, HarStreamParser, type HarStreamOptions } from './stream-parser.js';
import { summarise } from './summary.js';
import type { HarAnalysis, Hit } from './types.js';
import { checkAcross, checkHit, WarningCollector } from './warnings.js';

export interface HarStreamAnalysisOptions {
  /**
   * How many hits to keep decoded while reading (default: all); the requests of the later ones are
   * kept instead and decoded again in finish().
   */
  keepDecoded?: number;
}

/**
 * The HAR analysis of analyseHar (analyse.ts), fed one entry at a time: each entry is decoded as it
 * arrives and only its hits are kept, so a capture never has to be held whole. The result is the
 * same as analyseHar's for the same file (stream-analyse.spec.ts compares them on every fixture):
 * hits in request order (by start time, file order for ties), then the same checks and summary.
 *
 * Memory: each entry is decoded as it arrives (to count its hits), and its decoded hits are kept
 * until finish() — the first `keepDecoded` of them. Beyond that, only the request of each analytics
 * entry is kept (captureEntry: its URL, body, status and time) and decoded once more in finish(). A
 * decoded hit, with its labelled parameters, is several times larger than its request, and while
 * the file is read it shares the worker's memory with the text passing through: on a 1 GB capture
 * with every hit kept decoded the renderer peaked over 500 MB, with none about 150 MB lower. Decoding
 * twice costs time (about a third more for the analysis), so the worker only asks for it on large
 * files (har.worker.ts; scripts/bench/har-browser.mjs measures both).
 */
export class HarStreamAnalysis {
  /** Each analytics entry: its decoded hits, or (beyond keepDecoded) its request to decode again. */
  private readonly found: Array<{ index: number; timeMs: number; drafts: HitDraft[] | null; request: CapturedRequest | null }> = [];
  private readonly keepDecoded: number;
  private entryCount = 0;
  private hitCount = 0;

  constructor(options: HarStreamAnalysisOptions = {}) {
    this.keepDecoded = options.keepDecoded ?? Infinity;
  }

  /** Entries seen so far. */
  get entries(): number {
    return this.entryCount;
  }

  /** Hits decoded so far. */
  get hits(): number {
    return this.hitCount;
  }

  /** Decodes one entry (the `index`-th of log.entries). */
  add(entry: unknown, index: number): void {
    this.entryCount = Math.max(this.entryCount, index + 1);
    // Not an entry at all (analyseHar would stop on it): counted, nothing to decode.
    if (typeof entry !== 'object' || entry === null) return;
    const request = captureEntry(entry as HarEntry, index);
    if (!request) return;
    const drafts = decodeRequest(request);
    if (!drafts.length) return;
    const keep = this.hitCount + drafts.length <= this.keepDecoded;
    this.found.push({ index, timeMs: request.timeMs, drafts: keep ? drafts : null, request: keep ? null : request });
    this.hitCount += drafts.length;
  }

  /** Orders the hits, checks them and summarises. */
  finish(log: Pick<HarLog['log'], 'creator'> = {}): HarAnalysis {
    // HAR exporters write entries in start order, but merged captures may not be (as analyseHar).
    const found = this.found;
    found.sort((a, b) => a.timeMs - b.timeMs || a.index - b.index);
    const hits: Hit[] = [];
    for (const each of found) {
      for (const draft of each.drafts ?? decodeRequest(each.request!)) {
        const hit = draft as Hit;
        hit.id = hits.length;
        hit.warningIds = [];
        hits.push(hit);
      }
    }
    const analyticsEntries = found.length;
    this.found.length = 0;
    const collector = new WarningCollector();
    for (const hit of hits) checkHit(hit, collector);
    checkAcross(hits, collector);
    const creator = log.creator?.name ? `${log.creator.name} ${log.creator.version ?? ''}`.trim() : null;
    return {
      hits,
      warnings: collector.warnings,
      summary: summarise(hits, collector.warnings, { entries: this.entryCount, analyticsEntries, creator }),
    };
  }
}

export interface StreamedHar {
  analysis: HarAnalysis;
  end: HarStreamEnd;
}

/**
 * Parses and analyses a HAR given as a sequence of text chunks (a whole string is one chunk).
 * Throws the HarErrors of parseHar (messages worded by the stream parser). Used by the tests and
 * the Node benchmark; the worker drives HarStreamParser and HarStreamAnalysis itself.
 */
export function analyseHarChunks(
  chunks: Iterable<string>,
  options: Omit<HarStreamOptions, 'onEntry'> & HarStreamAnalysisOptions = {},
): StreamedHar {
  const analysis = new HarStreamAnalysis(options);
  const parser = new HarStreamParser({ ...options, onEntry: (entry, index) => analysis.add(entry, index) });
  for (const chunk of chunks) parser.push(chunk);
  const end = parser.end();
  return { analysis: analysis.finish(end), end };
}
