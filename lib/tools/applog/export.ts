import type { AppLogEntry, AppLogParam, AppLogResult } from './types.js';

export interface AppLogExportParam {
  name: string;
  shortName: string | null;
  value: string | null;
  items?: AppLogExportParam[][];
}

export interface AppLogExportDocument {
  format: 'hitscope.applog';
  version: 1;
  generatedAt: string;
  source: string | null;
  platform: AppLogResult['platform'];
  lines: { total: number; firebase: number; unrecognised: number };
  summary: AppLogResult['summary'];
  entries: Array<Omit<AppLogEntry, 'params' | 'items'> & { params: AppLogExportParam[]; items: AppLogExportParam[][] }>;
  userProperties: AppLogResult['userProperties'];
  unrecognised: AppLogResult['unrecognised'];
}

function exportParam(param: AppLogParam): AppLogExportParam {
  const out: AppLogExportParam = { name: param.name, shortName: param.shortName, value: param.value };
  if (param.items) out.items = param.items.map((item) => item.map(exportParam));
  return out;
}

/**
 * The "Export JSON" document: everything decoded, nothing of the raw log beyond each entry's first
 * message. Pure: `generatedAt` is passed in so the same input always gives the same document.
 */
export function buildExportDocument(
  result: AppLogResult,
  options: { generatedAt: string; source?: string | null; entries?: AppLogEntry[] },
): AppLogExportDocument {
  const entries = options.entries ?? result.entries;
  return {
    format: 'hitscope.applog',
    version: 1,
    generatedAt: options.generatedAt,
    source: options.source ?? null,
    platform: result.platform,
    lines: { total: result.totalLines, firebase: result.relevantLines, unrecognised: result.unrecognisedCount },
    summary: result.summary,
    entries: entries.map((entry) => ({
      ...entry,
      params: entry.params.map(exportParam),
      items: entry.items.map((item) => item.map(exportParam)),
    })),
    userProperties: result.userProperties,
    unrecognised: result.unrecognised,
  };
}

/** A file name for the export: `applog-android-2024-05-01T10-00-00.json`. */
export function exportFileName(result: AppLogResult, generatedAt: string): string {
  return `applog-${result.platform}-${generatedAt.slice(0, 19).replace(/:/g, '-')}.json`;
}
