import type { AppLogEntry, AppLogParam } from './types.js';

/** Columns before the entry's own: the desktop app puts the device and app of each entry there. */
export interface CsvContext<T> {
  header: string[];
  values: (row: T) => string[];
}

const HEADER = ['time', 'kind', 'name', 'short_name', 'origin', 'screen', 'value', 'parameters', 'items', 'issues', 'stages', 'lines'];

/**
 * A cell as RFC 4180 writes it. A value a spreadsheet would run as a formula (`=`, `+`, `-`, `@`,
 * tab, carriage return first) gets a leading apostrophe: log text comes from apps, not from the
 * person opening the file.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function params(list: AppLogParam[]): string {
  return list
    .map(
      (param) =>
        `${param.name}=${param.items ? `[${param.items.map((item) => `{${params(item)}}`).join(', ')}]` : (param.value ?? 'null')}`,
    )
    .join('; ');
}

/** One row per entry: what the stream view shows, parameters and items flattened to `name=value; …`. */
export function buildEntriesCsv<T extends { entry: AppLogEntry }>(rows: readonly T[], context?: CsvContext<T>): string {
  const lines = [[...(context?.header ?? []), ...HEADER].map(csvCell).join(',')];
  for (const row of rows) {
    const { entry } = row;
    const cells = [
      ...(context ? context.values(row) : []),
      entry.time ?? '',
      entry.kind,
      entry.name,
      entry.shortName ?? '',
      entry.origin ?? '',
      entry.screen ?? '',
      entry.kind === 'user_property' ? (entry.value ?? 'null') : '',
      params(entry.params),
      entry.items.map((item) => `{${params(item)}}`).join(', '),
      entry.issues.map((issue) => `${issue.code}: ${issue.message}`).join(' | '),
      entry.stages.join(' > '),
      entry.lines.join(' '),
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  // CRLF as RFC 4180 says; spreadsheets read it everywhere.
  return `${lines.join('\r\n')}\r\n`;
}
