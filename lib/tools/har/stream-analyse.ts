import { captureEntry, decodeRequest, type HarEntry, type HarLog } from './analyse.js';
import type { CapturedRequest, HitDraft } from './request.js';
import { linkSecondary } from './secondary.js';
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
  /** Each analytics entry: its request, and its decoded hits unless they are beyond keepDecoded. */
  private readonly found: Array<{ index: number; timeMs: number; drafts: HitDraft[] | null; request: CapturedRequest }> = [];
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
    this.found.push({ index, timeMs: request.timeMs, drafts: keep ? drafts : null, request });
    this.hitCount += drafts.length;
  }

  /** Orders the hits, checks them and summarises. */
  finish(log: Pick<HarLog['log'], 'creator'> = {}): HarAnalysis {
    return this.complete(log, false).analysis;
  }

  /**
   * As finish(), but each hit is kept without its decoded parameters and items (`params` and
   * `items` are empty): detail(id) decodes them again from the hit's request. For captures whose
   * full analysis would be too large to keep: each hit is decoded, checked, then made light, so the
   * decoded hits are never all held at once.
   */
  finishLight(log: Pick<HarLog['log'], 'creator'> = {}): LightHarAnalysis {
    return this.complete(log, true);
  }

  private complete(log: Pick<HarLog['log'], 'creator'>, light: boolean): LightHarAnalysis {
    // HAR exporters write entries in start order, but merged captures may not be (as analyseHar).
    const found = this.found;
    found.sort((a, b) => a.timeMs - b.timeMs || a.index - b.index);
    const hits: Hit[] = [];
    // For light hits: the request of each hit and its place among that request's hits.
    const sources: CapturedRequest[] = [];
    const parts: number[] = [];
    const collector = new WarningCollector();
    for (const each of found) {
      const drafts = each.drafts ?? decodeRequest(each.request);
      drafts.forEach((draft, part) => {
        const hit = draft as Hit;
        hit.id = hits.length;
        hit.warningIds = [];
        hits.push(hit);
        // A hit's own checks read its parameters: done before they are dropped (in hit order, as
        // finish() does after decoding them all).
        checkHit(hit, collector);
        if (light) {
          hit.params = [];
          hit.items = [];
          sources.push(each.request);
          parts.push(part);
        }
      });
    }
    const analyticsEntries = found.length;
    this.found.length = 0;
    linkSecondary(hits);
    checkAcross(hits, collector);
    const creator = log.creator?.name ? `${log.creator.name} ${log.creator.version ?? ''}`.trim() : null;
    const analysis: HarAnalysis = {
      hits,
      warnings: collector.warnings,
      summary: summarise(hits, collector.warnings, { entries: this.entryCount, analyticsEntries, creator }),
    };
    const detail = (id: number): Hit | null => {
      const hit = hits[id];
      if (!hit) return null;
      if (!light) return hit;
      const draft = decodeRequest(sources[id]!)[parts[id]!];
      if (!draft) return null;
      return { ...draft, id, warningIds: hit.warningIds, ...(hit.follows !== undefined ? { follows: hit.follows } : {}) };
    };
    return { analysis, detail };
  }
}

/** The result of HarStreamAnalysis.finishLight. */
export interface LightHarAnalysis {
  /** Its hits have empty `params` and `items`; everything else is as finish() answers. */
  analysis: HarAnalysis;
  /** Hit `id` whole, as finish() would have it (decoded again from its request). */
  detail: (id: number) => Hit | null;
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
