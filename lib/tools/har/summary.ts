import type { CountRow, HarSummary, HarWarning, Hit, PageRow } from './types.js';

function counts(values: Iterable<string>): CountRow[] {
  const map = new Map<string, number>();
  for (const value of values) map.set(value, (map.get(value) ?? 0) + 1);
  return [...map].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** Page URL without the fragment: the unit pages are listed and filtered by. */
export function pageKey(page: string | null): string {
  return page ? page.split('#')[0]! : '(unknown page)';
}

export function summarise(
  hits: Hit[],
  warnings: HarWarning[],
  file: { entries: number; analyticsEntries: number; creator: string | null },
): HarSummary {
  const pages = new Map<string, PageRow>();
  for (const hit of hits) {
    const url = pageKey(hit.page);
    const row = pages.get(url);
    if (row) row.hits++;
    else pages.set(url, { url, hits: 1, firstTime: hit.time });
  }
  const severities = { error: 0, warning: 0, info: 0 };
  for (const warning of warnings) severities[warning.severity]++;
  return {
    entries: file.entries,
    analyticsEntries: file.analyticsEntries,
    hits: hits.length,
    byVendor: counts(hits.map((hit) => hit.vendor)),
    byEvent: counts(hits.map((hit) => hit.type)),
    byAccount: counts(hits.flatMap((hit) => (hit.accountId ? [hit.accountId] : []))),
    pages: [...pages.values()].sort((a, b) => a.firstTime.localeCompare(b.firstTime)),
    warnings: severities,
    warningsByCode: counts(warnings.map((warning) => warning.code)),
    creator: file.creator,
  };
}
