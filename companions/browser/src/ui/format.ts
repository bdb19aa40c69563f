import { formatCount } from '../../../../client/features/har/format.js';

import type { HarSummary, Vendor } from '../../../../lib/tools/har/types.js';
import { VENDOR_KINDS, VENDOR_LABELS } from '../../../../lib/tools/har/vendors.js';
import type { VendorNames } from '../../../../client/features/har/vendor-names.js';

export { countOf, formatCount, formatTime, shortUrl } from '../../../../client/features/har/format.js';

/** The extension bundles the decoders (it captures with them), so it names vendors from their registry. */
export const vendorLabel = (vendor: Vendor | string) => VENDOR_LABELS[vendor as Vendor] ?? vendor;

/** Every vendor's name and kind, for the web analyser's components (HarHitDetail) the panel reuses. */
export const VENDOR_NAMES: VendorNames = new Map(
  Object.entries(VENDOR_LABELS).map(([id, label]) => [id, { label, kind: VENDOR_KINDS[id as Vendor] }]),
);

/** "12 hits" / "1 hit" without the noun's plural rules spread over the components. */
export const plural = (count: number, singular: string, pluralForm = `${singular}s`) =>
  `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;

/** The page load's heading: "Page load 2 · reload". */
export function loadLabel(index: number, transition: string): string {
  if (transition === 'earlier') return 'Before capture began';
  const how =
    transition === 'reload' ? 'reload' : transition === 'typed' ? 'typed' : transition === 'link' ? 'link' : transition.replace(/_/g, ' ');
  return `Page load ${index + 1} · ${how}`;
}

/** What an export holds, counted as the web analyser counts: "36 hits and 7 other requests". */
export function exportedCount(summary: Pick<HarSummary, 'hits' | 'secondary' | 'containers'>): string {
  const others = summary.secondary + summary.containers;
  return others ? `${plural(summary.hits, 'hit')} and ${plural(others, 'other request')}` : plural(summary.hits, 'hit');
}
