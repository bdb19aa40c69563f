import { decodeEntry } from '../har/analyse.js';
import { summarise } from '../har/summary.js';
import type { HarSummary, HarWarning, Hit } from '../har/types.js';
import { checkAcross, checkHit, WarningCollector } from '../har/warnings.js';
import { type ConsentTimelineEntry, consentCommands, consentTimeline } from './consent-timeline.js';
import { type Answer, decodableEntry } from './har-export.js';
import { type CaptureWarning, checkLoad, type LiveWarningCode } from './live-warnings.js';
import type { CaptureRecord, DataLayerRecord, NavigationRecord, RequestRecord } from './records.js';

/** A page load: a document committed in the tab (a reload is a new one), or what came before the first. */
export interface PageLoad {
  index: number;
  /** Milliseconds since the epoch; -Infinity for the load that was under way when capture began. */
  time: number;
  url: string | null;
  /** webNavigation's transition (`link`, `typed`, `reload`…), or `earlier` for the load before capture began. */
  transition: string;
  /** Route changes of a single-page app within it (history API), in time order. */
  routes: NavigationRecord[];
}

export interface LoadSummary {
  load: PageLoad;
  hitIds: number[];
  dataLayer: DataLayerRecord[];
  consent: ConsentTimelineEntry[];
}

export interface CaptureAnalysis {
  hits: Hit[];
  warnings: CaptureWarning[];
  summary: HarSummary;
  loads: LoadSummary[];
  /** Every dataLayer record, in time order. */
  dataLayer: DataLayerRecord[];
  /** The page load of each hit, by hit id. */
  loadOfHit: Int32Array;
}

type OwnWarning = Omit<CaptureWarning, 'id' | 'hitId' | 'page'>;

const byTime = (a: { time: number; seq: number }, b: { time: number; seq: number }) =>
  Math.floor(a.time) - Math.floor(b.time) || a.seq - b.seq;

/** Index of the last element of `times` (ascending) that is <= `time`, or -1. */
function lastAtOrBefore(times: readonly number[], time: number): number {
  let low = 0;
  let high = times.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (times[middle]! <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/**
 * A tab's capture as the panels show it, built up from its records as they arrive: each analytics
 * request decoded by the HAR analyser's decoders (the same call the web analyser makes on the same
 * entry, so the HAR export decodes to the same hits), hits numbered in request order (by start time,
 * then capture order, as the web analyser orders a file's entries), grouped by page load, with the
 * dataLayer, the consent timeline and the warnings of both the HAR analyser and the live checks.
 */
export class LiveCapture {
  private readonly requests: RequestRecord[] = [];
  private readonly answers = new Map<string, Answer>();
  private readonly hitsByRequest = new Map<string, Hit[]>();
  private readonly own = new WeakMap<Hit, OwnWarning[]>();
  private readonly requestOf = new WeakMap<Hit, string>();
  private readonly documentOf = new Map<string, string>();
  private readonly navigations: NavigationRecord[] = [];
  private readonly dataLayerRecords: DataLayerRecord[] = [];
  private hitList: Hit[] = [];
  private ordered = true;
  /** The highest record seq applied: a reader asks the store for records after it. */
  lastSeq = 0;

  /** Applies records (any order, any kind); records already applied are skipped. */
  apply(records: readonly CaptureRecord[]): void {
    for (const record of records) {
      if (record.seq <= this.lastSeq) continue;
      this.lastSeq = record.seq;
      switch (record.kind) {
        case 'request':
          this.addRequest(record);
          break;
        case 'status':
          this.setAnswer(record.requestId, { status: record.status, error: record.error });
          break;
        case 'navigation':
          this.insertSorted(this.navigations, record);
          break;
        case 'datalayer':
          this.insertSorted(this.dataLayerRecords, record);
          break;
      }
    }
  }

  private insertSorted<T extends { time: number; seq: number }>(list: T[], record: T): void {
    let index = list.length;
    while (index > 0 && byTime(list[index - 1]!, record) > 0) index--;
    list.splice(index, 0, record);
  }

  private addRequest(record: RequestRecord): void {
    if (this.hitsByRequest.has(record.requestId)) return;
    const last = this.requests[this.requests.length - 1];
    if (last && byTime(last, record) > 0) this.ordered = false;
    this.insertSorted(this.requests, record);
    if (record.documentId) this.documentOf.set(record.requestId, record.documentId);
    const hits = this.decode(record);
    this.hitsByRequest.set(record.requestId, hits);
    if (this.ordered) {
      for (const hit of hits) {
        hit.id = this.hitList.length;
        this.hitList.push(hit);
      }
    }
  }

  private decode(record: RequestRecord): Hit[] {
    const hits = decodeEntry(decodableEntry(record, this.answers.get(record.requestId) ?? null), 0) as Hit[];
    for (const hit of hits) {
      hit.id = -1;
      hit.warningIds = [];
      this.requestOf.set(hit, record.requestId);
    }
    return hits;
  }

  private setAnswer(requestId: string, answer: NonNullable<Answer>): void {
    this.answers.set(requestId, answer);
    for (const hit of this.hitsByRequest.get(requestId) ?? []) {
      hit.status = answer.status;
      this.own.delete(hit);
    }
  }

  /** The requests in hit order, with the answer each got (for the HAR export). */
  exportInput(): {
    requests: RequestRecord[];
    answers: ReadonlyMap<string, Answer>;
    pages: NavigationRecord[];
    dataLayer: DataLayerRecord[];
  } {
    return {
      requests: [...this.requests],
      answers: this.answers,
      pages: this.navigations.filter((navigation) => navigation.transition !== 'history'),
      dataLayer: [...this.dataLayerRecords],
    };
  }

  /** The browser's network error for the request that carried `hit` (`net::ERR_BLOCKED_BY_CLIENT`…), or null. */
  errorOf(hit: Hit): string | null {
    const requestId = this.requestOf.get(hit);
    return (requestId && this.answers.get(requestId)?.error) || null;
  }

  get hitCount(): number {
    return this.ordered ? this.hitList.length : this.hits().length;
  }

  /** The hits in order, ids assigned (renumbered when a request arrived out of order). */
  hits(): Hit[] {
    if (!this.ordered) {
      this.hitList = [];
      for (const request of this.requests) {
        for (const hit of this.hitsByRequest.get(request.requestId) ?? []) {
          hit.id = this.hitList.length;
          this.hitList.push(hit);
        }
      }
      this.ordered = true;
    }
    return this.hitList;
  }

  private ownWarnings(hit: Hit): OwnWarning[] {
    let found = this.own.get(hit);
    if (!found) {
      const collector = new WarningCollector();
      const probe = { ...hit, warningIds: [] };
      checkHit(probe, collector);
      found = collector.warnings.map(({ code, severity, message }) => ({ code, severity, message }));
      this.own.set(hit, found);
    }
    return found;
  }

  /** Everything the panels show, computed from the records applied so far. */
  analyse(): CaptureAnalysis {
    const hits = this.hits();
    const warnings: CaptureWarning[] = [];
    const add = (code: CaptureWarning['code'], severity: CaptureWarning['severity'], message: string, hit: Hit | null) => {
      const warning: CaptureWarning = { id: warnings.length, code, severity, message, hitId: hit?.id ?? null, page: hit?.page ?? null };
      warnings.push(warning);
      hit?.warningIds.push(warning.id);
    };
    // checkAcross notes its findings on the hits it is given: run it first, then start the hits' lists
    // afresh, so every list holds ids of `warnings` (the HAR analyser's order: per hit, then across).
    const across = new WarningCollector();
    checkAcross(hits, across);
    for (const hit of hits) hit.warningIds = [];
    for (const hit of hits) for (const own of this.ownWarnings(hit)) add(own.code, own.severity, own.message, hit);
    for (const warning of across.warnings)
      add(warning.code, warning.severity, warning.message, warning.hitId === null ? null : hits[warning.hitId]!);

    const loads = this.pageLoads(hits);
    for (const load of loads) {
      checkLoad(
        { hits: load.hitIds.map((id) => hits[id]!), commands: consentCommands(load.dataLayer) },
        (code: LiveWarningCode, severity, message, hit) => add(code, severity, message, hit),
      );
    }
    const loadOfHit = new Int32Array(hits.length);
    for (const summary of loads) for (const id of summary.hitIds) loadOfHit[id] = summary.load.index;

    return {
      hits,
      warnings,
      summary: summarise(hits, warnings as unknown as HarWarning[], {
        entries: this.requests.length,
        analyticsEntries: this.requests.length,
        creator: null,
      }),
      loads,
      dataLayer: this.dataLayerRecords,
      loadOfHit,
    };
  }

  private pageLoads(hits: readonly Hit[]): LoadSummary[] {
    const loads: PageLoad[] = [];
    const byDocument = new Map<string, number>();
    for (const navigation of this.navigations) {
      if (navigation.transition === 'history') {
        loads[loads.length - 1]?.routes.push(navigation);
        continue;
      }
      loads.push({ index: loads.length, time: navigation.time, url: navigation.url, transition: navigation.transition, routes: [] });
    }
    const navigations = this.navigations.filter((navigation) => navigation.transition !== 'history');
    // A page's first scripts run before the browser has logged its commit, so times alone would put
    // its first pushes (the consent default) in the load before: the document decides where it can.
    const documentOf = (record: { documentId?: string }) => (record.documentId ? byDocument.get(record.documentId) : undefined);
    const firstTime = loads[0]?.time ?? Infinity;
    const hitDocument = (hit: Hit) => this.documentOf.get(this.requestOf.get(hit) ?? '');
    navigations.forEach((navigation, index) => {
      if (navigation.documentId) byDocument.set(navigation.documentId, index);
    });
    const earlier =
      hits.some((hit) => byDocument.get(hitDocument(hit) ?? '') === undefined && hit.timeMs < Math.floor(firstTime)) ||
      this.dataLayerRecords.some((record) => documentOf(record) === undefined && record.time < firstTime);
    const offset = earlier || loads.length === 0 ? 1 : 0;
    if (offset) {
      loads.unshift({ index: 0, time: -Infinity, url: null, transition: 'earlier', routes: [] });
      loads.forEach((load, index) => (load.index = index));
    }
    const times = loads.map((load) => (load.time === -Infinity ? -Infinity : Math.floor(load.time)));
    const loadOf = (documentId: string | undefined, time: number) => {
      const known = documentId ? byDocument.get(documentId) : undefined;
      return known !== undefined ? known + offset : Math.max(0, lastAtOrBefore(times, time));
    };
    const summaries: LoadSummary[] = loads.map((load) => ({ load, hitIds: [], dataLayer: [], consent: [] }));
    for (const hit of hits) summaries[loadOf(hitDocument(hit), hit.timeMs)]!.hitIds.push(hit.id);
    for (const record of this.dataLayerRecords) summaries[loadOf(record.documentId, record.time)]!.dataLayer.push(record);
    for (const summary of summaries) {
      if (summary.load.url === null) summary.load.url = summary.dataLayer[0]?.url ?? hits[summary.hitIds[0] ?? -1]?.page ?? null;
      summary.consent = consentTimeline(
        summary.dataLayer,
        summary.hitIds.map((id) => hits[id]!),
      );
    }
    return summaries;
  }
}
