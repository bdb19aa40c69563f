import type { AppLogEntry, AppLogPlatform, AppLogSummary, AppLogUserProperty } from '../../../../lib/tools/applog/types.js';

/** An entry of the merged stream: the decoder's entry with where it came from. */
export interface DesktopEntry extends AppLogEntry {
  /** The source (device or file) that logged it. */
  source: string;
  /** The app (package or process name), when the line says. */
  app: string | null;
  /** Position in the merged stream of every source, in the order entries first appeared. */
  seq: number;
}

export type ToWorker =
  | { type: 'add'; source: string; platform: AppLogPlatform | 'auto' }
  | { type: 'lines'; source: string; lines: string[] }
  | { type: 'apps'; source: string; apps: Record<string, string> }
  | { type: 'end'; source: string }
  | { type: 'reset' };

export interface SourceUpdate {
  type: 'update';
  source: string;
  platform: AppLogPlatform;
  entries: DesktopEntry[];
  userProperties: AppLogUserProperty[] | null;
  summary: AppLogSummary;
  lines: { total: number; firebase: number; unrecognised: number };
  ended: boolean;
}

export type FromWorker = SourceUpdate | { type: 'error'; source: string; message: string };
