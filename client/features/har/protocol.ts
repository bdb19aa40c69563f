import type { AnalysisProgress, HarSummary, HarWarning, Hit, Severity, Vendor } from '../../../lib/tools/har/types.js';

/**
 * Messages between the page and har.worker.ts. The worker keeps the full analysis (every decoded
 * parameter of every hit); the page gets light rows for the list and asks for one hit's details,
 * for filtering and for the export, so that tens of thousands of hits never have to be copied to
 * (or held by) the main thread at once.
 */
export interface HitFilter {
  vendor: Vendor | '';
  event: string;
  page: string;
  text: string;
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
}

export type ToWorker =
  | { type: 'analyse'; file: File }
  | { type: 'filter'; seq: number; filter: HitFilter }
  | { type: 'hit'; seq: number; id: number }
  | { type: 'export' };

export interface AnalysisTimings {
  readMs: number;
  parseMs: number;
  analyseMs: number;
}

export type FromWorker =
  | { type: 'progress'; progress: AnalysisProgress }
  | {
      type: 'done';
      fileName: string;
      bytes: number;
      summary: HarSummary;
      warnings: HarWarning[];
      rows: HitRow[];
      timings: AnalysisTimings;
    }
  | { type: 'error'; code: string; message: string }
  | { type: 'filtered'; seq: number; ids: Int32Array }
  | { type: 'hit'; seq: number; hit: Hit | null }
  | { type: 'export'; blob: Blob };
