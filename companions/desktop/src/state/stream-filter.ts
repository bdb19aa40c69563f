import type { AppLogKind } from '../../../../lib/tools/applog/types.js';
import { searchText } from '../../../../client/features/applog/format.js';
import type { DesktopEntry } from '../decode/protocol.js';

/** The view's filters; empty strings and false mean "any". */
export interface StreamFilter {
  search: string;
  source: string;
  app: string;
  /** An entry kind, or `session` for session starts. */
  kind: '' | AppLogKind | 'session';
  name: string;
  onlyIssues: boolean;
}

export const NO_FILTER: StreamFilter = { search: '', source: '', app: '', kind: '', name: '', onlyIssues: false };

export function isSessionStart(entry: DesktopEntry): boolean {
  return entry.name === 'session_start' || entry.shortName === '_s';
}

const texts = new WeakMap<DesktopEntry, string>();
/** The lower-case text an entry is searched in, worked out once per version of the entry. */
function textOf(entry: DesktopEntry, sourceLabel: string): string {
  let text = texts.get(entry);
  if (text === undefined) {
    text = `${searchText(entry)}\u0000${(entry.app ?? '').toLowerCase()}\u0000${sourceLabel.toLowerCase()}`;
    texts.set(entry, text);
  }
  return text;
}

export function matches(entry: DesktopEntry, filter: StreamFilter, sourceLabel = ''): boolean {
  if (filter.source && entry.source !== filter.source) return false;
  if (filter.app && entry.app !== filter.app) return false;
  if (filter.kind === 'session' ? !isSessionStart(entry) : filter.kind && entry.kind !== filter.kind) return false;
  if (filter.name && entry.name !== filter.name) return false;
  if (filter.onlyIssues && entry.issues.length === 0) return false;
  const search = filter.search.trim().toLowerCase();
  return !search || textOf(entry, sourceLabel).includes(search);
}

/** The entries that pass, in stream order (the array may have holes while updates arrive). */
export function filterEntries(
  entries: readonly (DesktopEntry | undefined)[],
  filter: StreamFilter,
  labels: ReadonlyMap<string, string>,
): DesktopEntry[] {
  const out: DesktopEntry[] = [];
  for (const entry of entries) if (entry && matches(entry, filter, labels.get(entry.source) ?? '')) out.push(entry);
  return out;
}

/** The apps and event names present, for the filter's choices. */
export function choicesOf(entries: readonly (DesktopEntry | undefined)[]): { apps: string[]; names: string[] } {
  const apps = new Set<string>();
  const names = new Set<string>();
  for (const entry of entries) {
    if (!entry) continue;
    if (entry.app) apps.add(entry.app);
    if (entry.kind === 'event' || entry.kind === 'screen') names.add(entry.name);
  }
  return { apps: [...apps].sort(), names: [...names].sort() };
}
