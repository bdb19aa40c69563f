import { csvRow } from '../../csv/csv.js';
import { VENDOR_LABELS } from '../har/types.js';
import type { CaptureAnalysis } from './capture.js';

export const CSV_HEADER = [
  'Hit',
  'Time (UTC)',
  'Page load',
  'Page',
  'Vendor',
  'Event',
  'Account',
  'Client ID',
  'Status',
  'Consent',
  'Warnings',
  'Parameter',
  'Key',
  'Value',
] as const;

/**
 * A capture as CSV for spreadsheets, one row per decoded parameter (and per item parameter, keyed
 * `pr1.id`…), each row repeating its hit's columns: a pivot table then answers "which value did each
 * page_view send for page_location" without anyone copying values out of screenshots. A hit without
 * parameters still gets one row. Cells are quoted and formula-safe (lib/csv).
 */
export function captureCsv(analysis: Pick<CaptureAnalysis, 'hits' | 'warnings' | 'loadOfHit'>): string {
  let out = csvRow(CSV_HEADER);
  for (const hit of analysis.hits) {
    const warnings = hit.warningIds
      .map((id) => analysis.warnings[id]?.message)
      .filter(Boolean)
      .join(' | ');
    const head = [
      hit.id + 1,
      hit.time,
      (analysis.loadOfHit[hit.id] ?? 0) + 1,
      hit.page,
      VENDOR_LABELS[hit.vendor] ?? hit.vendor,
      hit.type,
      hit.accountId,
      hit.clientId,
      hit.status,
      hit.consent?.text ?? '',
      warnings,
    ];
    const rows: Array<[string, string, string]> = hit.params.map((param) => [param.name, param.key, param.value]);
    for (const item of hit.items)
      for (const param of item.params) rows.push([`${item.key} ${param.name}`, `${item.key}.${param.key}`, param.value]);
    if (!rows.length) rows.push(['', '', '']);
    for (const row of rows) out += csvRow([...head, ...row]);
  }
  return out;
}
