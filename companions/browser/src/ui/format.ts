import { formatCount } from '../../../../client/features/har/format.js';

export { countOf, formatCount, formatTime, shortUrl, vendorLabel } from '../../../../client/features/har/format.js';

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
