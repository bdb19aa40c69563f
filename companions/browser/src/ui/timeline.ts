import { countMatches, isAside, type MatchCount } from '../../../../lib/tools/har/summary.js';
import type { Hit } from '../../../../lib/tools/har/types.js';
import { VENDOR_KINDS } from '../../../../lib/tools/har/vendors.js';
import type { CaptureAnalysis, LoadSummary } from '../../../../lib/tools/live/capture.js';
import { dataLayerName, gtagCommand } from '../../../../lib/tools/live/datalayer.js';
import type { DataLayerRecord } from '../../../../lib/tools/live/records.js';

/** One row of the panel's list: a page load's heading, a hit or a dataLayer push, in time order. */
export type Row =
  /** `hits` counts as the header does: secondary requests and container loads apart. */
  | { kind: 'load'; key: string; load: LoadSummary; hits: number; pushes: number }
  | { kind: 'hit'; key: string; hit: Hit }
  | { kind: 'push'; key: string; record: DataLayerRecord; name: string; consent: boolean };

export interface Filter {
  vendor: string;
  event: string;
  /** Measurement id / pixel id / conversion id (Hit.accountId). */
  account: string;
  text: string;
  /** Show dataLayer pushes between the hits. */
  pushes: boolean;
}

export const NO_FILTER: Filter = { vendor: '', event: '', account: '', text: '', pushes: true };

export const isFiltering = (filter: Filter) => Boolean(filter.vendor || filter.event || filter.account || filter.text.trim());

const hitText = new WeakMap<Hit, string>();
const pushText = new WeakMap<DataLayerRecord, string>();

/** Everything searchable about a hit, lower-cased once. */
function haystackOf(hit: Hit): string {
  let text = hitText.get(hit);
  if (text === undefined) {
    const parts = [hit.type, hit.vendor, hit.accountId ?? '', hit.url, hit.clientId ?? '', hit.body ?? ''];
    for (const param of hit.params) parts.push(param.key, param.name, param.value);
    for (const item of hit.items) for (const param of item.params) parts.push(param.name, param.value);
    text = parts.join('\n').toLowerCase();
    hitText.set(hit, text);
  }
  return text;
}

function pushHaystack(record: DataLayerRecord): string {
  let text = pushText.get(record);
  if (text === undefined) {
    text = `${dataLayerName(record)}\n${JSON.stringify(record.value)}\n${record.script ?? ''}`.toLowerCase();
    pushText.set(record, text);
  }
  return text;
}

/** The Vendor select's value for a whole kind of vendors (as the web analyser's filter has it). */
export const KIND_PREFIX = 'kind:';

function vendorMatches(hit: Hit, vendor: string): boolean {
  if (vendor.startsWith(KIND_PREFIX)) return VENDOR_KINDS[hit.vendor] === vendor.slice(KIND_PREFIX.length);
  return hit.vendor === vendor;
}

export function hitMatches(hit: Hit, filter: Filter, needle: string): boolean {
  if (filter.vendor && !vendorMatches(hit, filter.vendor)) return false;
  if (filter.event && hit.type !== filter.event) return false;
  if (filter.account && hit.accountId !== filter.account) return false;
  return !needle || haystackOf(hit).includes(needle);
}

export const isConsentCommand = (record: DataLayerRecord) => record.gtag && gtagCommand(record.value)?.command === 'consent';

function pushMatches(record: DataLayerRecord, filter: Filter, needle: string): boolean {
  if (!filter.pushes || filter.vendor || filter.account) return false;
  if (filter.event && dataLayerName(record) !== filter.event && !(record.gtag && gtagCommand(record.value)?.target === filter.event))
    return false;
  return !needle || pushHaystack(record).includes(needle);
}

/**
 * The rows of the list for a filter: each page load's heading (always, so the grouping stays
 * visible), then its matching hits and pushes merged by time (a push before the hit it caused).
 */
export function timelineRows(analysis: CaptureAnalysis, filter: Filter): Row[] {
  const needle = filter.text.trim().toLowerCase();
  const rows: Row[] = [];
  for (const summary of analysis.loads) {
    const hits = summary.hitIds.map((id) => analysis.hits[id]!).filter((hit) => hitMatches(hit, filter, needle));
    const pushes = summary.dataLayer.filter((record) => pushMatches(record, filter, needle));
    rows.push({
      kind: 'load',
      key: `load-${summary.load.index}`,
      load: summary,
      hits: summary.hitIds.reduce((count, id) => (isAside(analysis.hits[id]!) ? count : count + 1), 0),
      pushes: summary.dataLayer.length,
    });
    let p = 0;
    for (const hit of hits) {
      while (p < pushes.length && Math.floor(pushes[p]!.time) <= hit.timeMs) rows.push(pushRow(pushes[p++]!));
      rows.push({ kind: 'hit', key: `hit-${hit.id}`, hit });
    }
    while (p < pushes.length) rows.push(pushRow(pushes[p++]!));
  }
  return rows;
}

function pushRow(record: DataLayerRecord): Row {
  return { kind: 'push', key: `push-${record.seq}`, record, name: dataLayerName(record), consent: isConsentCommand(record) };
}

/** What a filter lets through, hits and other requests apart (the filters' count line, as the header counts). */
export function matchingHits(analysis: CaptureAnalysis, filter: Filter): MatchCount {
  if (!isFiltering(filter)) return countMatches(analysis.hits);
  const needle = filter.text.trim().toLowerCase();
  return countMatches(analysis.hits.filter((hit) => hitMatches(hit, filter, needle)));
}
