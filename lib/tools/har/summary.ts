import {
  type CountRow,
  type HarSummary,
  type HarWarning,
  type Hit,
  type PageRow,
  VENDOR_KIND_LABELS,
  VENDOR_KINDS_IN_ORDER,
} from './types.js';
import { VENDOR_KINDS, VENDOR_LABELS } from './vendors.js';

function counts(values: Iterable<string>): CountRow[] {
  const map = new Map<string, number>();
  for (const value of values) map.set(value, (map.get(value) ?? 0) + 1);
  return [...map].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

function withAsides(rows: CountRow[], asides: Map<string, number>): CountRow[] {
  return rows.map((row) => {
    const aside = asides.get(row.key);
    return aside ? { ...row, secondary: aside } : row;
  });
}

/** Page URL without the fragment: the unit pages are listed and filtered by. */
export function pageKey(page: string | null): string {
  return page ? page.split('#')[0]! : '(unknown page)';
}

/** A row that measures nothing itself: a secondary request or a container load. */
export function isAside(hit: { secondary?: string | null; container?: boolean }): boolean {
  return Boolean(hit.secondary) || Boolean(hit.container);
}

/**
 * What a filter lets through, counted as the summary counts: hits, and the secondary requests and
 * container loads apart ("other requests"), so that the filters' line and the header agree.
 */
export interface MatchCount {
  hits: number;
  others: number;
}

/** Counts `rows` (those at `ids`, when given) into hits and other requests. */
export function countMatches<T extends { secondary?: string | null; container?: boolean }>(
  rows: readonly T[],
  ids?: ArrayLike<number> | null,
): MatchCount {
  let others = 0;
  const total = ids ? ids.length : rows.length;
  for (let index = 0; index < total; index++) if (isAside(rows[ids ? ids[index]! : index]!)) others++;
  return { hits: total - others, others };
}

export function summarise(
  hits: Hit[],
  warnings: HarWarning[],
  file: { entries: number; analyticsEntries: number; creator: string | null },
): HarSummary {
  const pages = new Map<string, PageRow>();
  const asideByVendor = new Map<string, number>();
  const asideByEvent = new Map<string, number>();
  /** The vendor each account was first seen with. */
  const accountVendor = new Map<string, Hit['vendor']>();
  let secondary = 0;
  let containers = 0;
  let invalid = 0;
  for (const hit of hits) {
    const url = pageKey(hit.page);
    const row = pages.get(url);
    if (row) row.hits++;
    else pages.set(url, { url, hits: 1, firstTime: hit.time });
    if (hit.secondary) secondary++;
    else if (hit.container) containers++;
    if (isAside(hit)) {
      asideByVendor.set(hit.vendor, (asideByVendor.get(hit.vendor) ?? 0) + 1);
      asideByEvent.set(hit.type, (asideByEvent.get(hit.type) ?? 0) + 1);
    } else if (hit.accountId && !accountVendor.has(hit.accountId)) accountVendor.set(hit.accountId, hit.vendor);
    if (hit.invalid) invalid++;
  }
  const severities = { error: 0, warning: 0, info: 0 };
  for (const warning of warnings) severities[warning.severity]++;
  const byVendor = counts(hits.map((hit) => hit.vendor)).map((row) => {
    const vendor = row.key as Hit['vendor'];
    const aside = asideByVendor.get(vendor) ?? 0;
    return {
      ...row,
      label: VENDOR_LABELS[vendor] ?? vendor,
      kind: VENDOR_KINDS[vendor] ?? 'analytics',
      ...(aside ? { secondary: aside } : {}),
    };
  });
  const byKind: CountRow[] = [];
  for (const kind of VENDOR_KINDS_IN_ORDER) {
    const rows = byVendor.filter((row) => row.kind === kind);
    if (!rows.length) continue;
    const aside = rows.reduce((sum, row) => sum + (row.secondary ?? 0), 0);
    byKind.push({
      key: kind,
      label: VENDOR_KIND_LABELS[kind],
      count: rows.reduce((sum, row) => sum + row.count, 0),
      ...(aside ? { secondary: aside } : {}),
    });
  }
  return {
    entries: file.entries,
    analyticsEntries: file.analyticsEntries,
    hits: hits.length - secondary - containers,
    rows: hits.length,
    secondary,
    containers,
    invalid,
    byVendor,
    byKind,
    // Rows per event, as the event filter shows them; `secondary` says how many of them measure
    // nothing (a signals ping carrying en=page_view is no second page view).
    byEvent: withAsides(counts(hits.map((hit) => hit.type)), asideByEvent),
    // Hits per account: secondary requests and container loads repeat or precede the hits. Each
    // account is named with the vendor it was first seen with (ids like "3" mean nothing alone).
    byAccount: counts(hits.flatMap((hit) => (hit.accountId && !isAside(hit) ? [hit.accountId] : []))).map((row) => {
      const vendor = accountVendor.get(row.key)!;
      return { ...row, label: VENDOR_LABELS[vendor] ?? vendor };
    }),
    pages: [...pages.values()].sort((a, b) => a.firstTime.localeCompare(b.firstTime)),
    warnings: severities,
    warningsByCode: counts(warnings.map((warning) => warning.code)),
    creator: file.creator,
  };
}
