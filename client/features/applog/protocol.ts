import type { AppLogEntry, AppLogPlatform, AppLogResult } from '../../../lib/tools/applog/types.js';

/**
 * Messages between the page and applog.worker.ts. The worker reads and analyses the log and keeps
 * the result for the export; the page gets the entries in batches (each message is deserialised in
 * a task of its own, so tens of thousands of entries never arrive in one long main-thread task) and
 * then the rest of the result.
 */
export type PlatformChoice = 'auto' | AppLogPlatform;

/** What was analysed: pasted text or a chosen/dropped file (read as a stream inside the worker). */
export type AppLogInput = { kind: 'text'; text: string } | { kind: 'file'; file: File };

export type ToWorker =
  { type: 'analyse'; input: AppLogInput; choice: PlatformChoice } | { type: 'export'; generatedAt: string; source: string };

export type FromWorker =
  /** `done` and `total` count bytes for a file, characters for pasted text. */
  | { type: 'progress'; done: number; total: number; lines: number }
  | { type: 'entries'; entries: AppLogEntry[] }
  | { type: 'done'; result: Omit<AppLogResult, 'entries'>; detected: AppLogPlatform | null }
  | { type: 'error'; message: string }
  /** Null when there is no finished analysis to export. */
  | { type: 'export'; file: { blob: Blob; name: string } | null };
