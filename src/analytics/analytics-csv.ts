import { csvRow } from '../../lib/csv/csv.js';
import { ANALYTICS_DIMENSIONS, DIMENSION_LABELS, DROP_LABELS } from '../../lib/api/analytics.js';
import type { AnalyticsReport } from './analytics-dashboard.service.js';

/** One file, three sections: the daily series, every dimension table, the drops by reason. */
export function analyticsCsv(report: AnalyticsReport): string {
  let out = csvRow(['section', 'day or value', 'page views', 'daily unique visitors', 'visits', 'previous period']);
  for (const day of report.series) out += csvRow(['daily', day.day, day.pageviews, day.visitors, day.visits, '']);
  out += csvRow(['total', `${report.from} to ${report.to}`, report.kpis.pageviews, report.kpis.visitors, report.kpis.visits, '']);
  for (const dim of ANALYTICS_DIMENSIONS) {
    for (const row of report.tables[dim]) out += csvRow([DIMENSION_LABELS[dim], row.value, row.count, '', '', row.previous]);
  }
  for (const drop of report.drops) out += csvRow(['Dropped', DROP_LABELS[drop.reason], drop.count, '', '', drop.previous]);
  return out;
}
