import { useId, useMemo } from 'react';
import type { CountRow, HarSummary } from '../../../../../lib/tools/har/types.js';
import type { MatchCount } from '../../../../../lib/tools/har/summary.js';
import { dataLayerName } from '../../../../../lib/tools/live/datalayer.js';
import type { DataLayerRecord } from '../../../../../lib/tools/live/records.js';
import { type Filter, isFiltering, KIND_PREFIX, NO_FILTER } from '../timeline.js';
import { formatCount, plural, vendorLabel } from '../format.js';

/** Vendor, event and measurement-id selects, a search over every decoded value, and the dataLayer switch. */
/**
 * The event choices: hit events and dataLayer names together, so choosing `purchase` lists the
 * dataLayer push and the hits it caused side by side.
 */
export function eventChoices(summary: HarSummary, pushes: readonly DataLayerRecord[]): CountRow[] {
  const counts = new Map<string, number>();
  for (const row of summary.byEvent) counts.set(row.key, row.count);
  for (const record of pushes) {
    const name = dataLayerName(record);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => ({ key, count })).sort((a, b) => a.key.localeCompare(b.key));
}

export function Filters({
  summary,
  pushes,
  filter,
  onChange,
  matching,
}: {
  summary: HarSummary;
  pushes: readonly DataLayerRecord[];
  filter: Filter;
  onChange: (filter: Filter) => void;
  /** Hits and other requests the filters let through, counted apart as the header counts them. */
  matching: MatchCount;
}) {
  const id = useId();
  const options = useMemo(
    () => ({
      // Grouped by kind, each with an "All …" choice, as the web analyser's Vendor select.
      vendors: summary.byKind.map((kind) => (
        <optgroup key={kind.key} label={kind.label ?? kind.key}>
          <option value={`${KIND_PREFIX}${kind.key}`}>
            All {(kind.label ?? kind.key).toLowerCase()} ({formatCount(kind.count)})
          </option>
          {summary.byVendor
            .filter((row) => row.kind === kind.key)
            .map((row) => (
              <option key={row.key} value={row.key}>
                {row.label ?? vendorLabel(row.key)} ({formatCount(row.count)})
              </option>
            ))}
        </optgroup>
      )),
      events: eventChoices(summary, pushes).map((row) => (
        <option key={row.key} value={row.key}>
          {row.key} ({formatCount(row.count)})
        </option>
      )),
      accounts: summary.byAccount.map((row) => (
        <option key={row.key} value={row.key}>
          {row.key} ({formatCount(row.count)})
        </option>
      )),
    }),
    [summary, pushes],
  );
  const set = (change: Partial<Filter>) => onChange({ ...filter, ...change });
  return (
    <form className="filters" role="search" aria-label="Filter the capture" onSubmit={(event) => event.preventDefault()}>
      <div className="field filters__field">
        <label htmlFor={`${id}-vendor`}>Vendor</label>
        <select id={`${id}-vendor`} value={filter.vendor} onChange={(event) => set({ vendor: event.target.value })}>
          <option value="">All vendors</option>
          {options.vendors}
        </select>
      </div>
      <div className="field filters__field">
        <label htmlFor={`${id}-event`}>Event</label>
        <select id={`${id}-event`} value={filter.event} onChange={(event) => set({ event: event.target.value })}>
          <option value="">All events</option>
          {options.events}
        </select>
      </div>
      <div className="field filters__field">
        <label htmlFor={`${id}-account`}>Measurement ID</label>
        <select id={`${id}-account`} value={filter.account} onChange={(event) => set({ account: event.target.value })}>
          <option value="">All IDs</option>
          {options.accounts}
        </select>
      </div>
      <div className="field filters__field">
        <label htmlFor={`${id}-text`}>Search</label>
        <input
          id={`${id}-text`}
          className="input"
          type="search"
          placeholder="Parameter, value, URL…"
          value={filter.text}
          onChange={(event) => set({ text: event.target.value })}
        />
      </div>
      <div className="filters__line">
        <label className="checkbox filters__pushes">
          <input type="checkbox" checked={filter.pushes} onChange={(event) => set({ pushes: event.target.checked })} />
          dataLayer pushes
        </label>
        <p className="filters__count muted" aria-live="polite">
          {plural(matching.hits, 'matching hit')}
          {matching.others ? ` · ${plural(matching.others, 'other request')}` : null}
          {isFiltering(filter) ? (
            <>
              {' · '}
              <button type="button" className="link-button" onClick={() => onChange({ ...NO_FILTER, pushes: filter.pushes })}>
                Clear filters
              </button>
            </>
          ) : null}
        </p>
      </div>
    </form>
  );
}
