/**
 * CSV for spreadsheets (RFC 4180 quoting), safe against CSV injection (OWASP "CSV Injection"): a
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula by
 * Excel, LibreOffice or Google Sheets, so it gets a leading `'`, which makes it text. Every cell is
 * quoted, so commas, quotes and line breaks inside a value stay inside it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvRow(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
