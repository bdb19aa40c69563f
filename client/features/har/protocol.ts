import type { HarSummary, HarWarning, Hit, Severity, Vendor, VendorKind } from '../../../lib/tools/har/types.js';

/**
 * Messages between the page and har.worker.ts. The worker keeps the full analysis (every decoded
 * parameter of every hit); the page gets light rows for the list and asks for one hit's details,
 * for filtering and for the export, so that tens of thousands of hits never have to be copied to
 * (or held by) the main thread at once.
 */
/** Which rows to list: all, only the hits, or one kind of row that is not a plain hit. */
export type RowShow = '' | 'hits' | 'invalid' | 'secondary' | 'containers';

export interface HitFilter {
  vendor: Vendor | '';
  /** A whole kind of vendors (analytics, ads, tag-manager, experience); '' for any. */
  kind: VendorKind | '';
  event: string;
  page: string;
  text: string;
  show: RowShow;
}

export interface HitRow {
  id: number;
  vendor: Vendor;
  type: string;
  accountId: string | null;
  page: string | null;
  time: string;
  status: number;
  method: string;
  batch: Hit['batch'];
  warnings: number;
  /** The most severe warning on this hit, if any. */
  severity: Severity | null;
  kind: VendorKind;
  /** A secondary request (Hit.secondary): what it is, and the id of the hit it follows if known. */
  secondary: string | null;
  follows: number | null;
  /** A container or tag script that loaded (Hit.container). */
  container: boolean;
  /** Not a valid hit (Hit.invalid): malformed or an older format. */
  invalid: 'malformed' | 'older-format' | null;
}

/**
 * Where an analysis is. The file is read as a stream and each entry decoded as it arrives
 * (`reading`, measured in bytes), then the hits are ordered, checked and summarised (`checking`).
 */
export interface ReadProgress {
  stage: 'reading' | 'checking';
  /** Bytes read so far, and the file's size. */
  done: number;
  total: number;
  /** Entries (requests) read and analytics hits decoded so far. */
  entries: number;
  hits: number;
}

export type ToWorker =
  | { type: 'analyse'; file: File }
  | { type: 'filter'; seq: number; filter: HitFilter }
  | { type: 'hit'; seq: number; id: number }
  | { type: 'export' };

export interface AnalysisTimings {
  /** Waiting for the file's bytes (the rest of the time spent while reading is in the two below). */
  readMs: number;
  /** Decoding the bytes as UTF-8, finding the entries in the text and JSON.parse of each. */
  parseMs: number;
  /** Decoding the hits of each entry, then ordering, checking and summarising them. */
  analyseMs: number;
}

export type FromWorker =
  | { type: 'progress'; progress: ReadProgress }
  | {
      type: 'done';
      fileName: string;
      bytes: number;
      summary: HarSummary;
      warnings: HarWarning[];
      rows: HitRow[];
      timings: AnalysisTimings;
      /**
       * Set when the file breaks off (or stops being valid JSON) after some complete entries: why,
       * worded for the person who dropped it. The results are those of the entries before the break.
       */
      incomplete: string | null;
    }
  | { type: 'error'; code: string; message: string }
  | { type: 'filtered'; seq: number; ids: Int32Array }
  | { type: 'hit'; seq: number; hit: Hit | null }
  | { type: 'export'; blob: Blob };
