import { useMemo } from 'react';
import type { HarSummary, Vendor } from '../../../../lib/tools/har/types.js';
import { countOf, formatCount, shortUrl, vendorLabel } from '../format.js';
import type { HitFilter } from '../protocol.js';
import '../har.css';

export const EMPTY_FILTER: HitFilter = { vendor: '', event: '', page: '', text: '' };

/** Vendor, event and page selects and a free-text search over every decoded parameter. */
export function HarFilters({
  summary,
  filter,
  onChange,
  matching,
}: {
  summary: HarSummary;
  filter: HitFilter;
  onChange: (filter: HitFilter) => void;
  matching: number;
}) {
  const active = filter.vendor || filter.event || filter.page || filter.text;
  // The options depend on the summary only: built once per file, not on every keystroke in Search
  // (a capture can have a thousand pages).
  const vendorOptions = useMemo(
    () =>
      summary.byVendor.map((row) => (
        <option key={row.key} value={row.key}>
          {vendorLabel(row.key)} ({formatCount(row.count)})
        </option>
      )),
    [summary],
  );
  const eventOptions = useMemo(
    () =>
      summary.byEvent.map((row) => (
        <option key={row.key} value={row.key}>
          {row.key} ({formatCount(row.count)})
        </option>
      )),
    [summary],
  );
  const pageOptions = useMemo(
    () =>
      summary.pages.map((row) => (
        <option key={row.url} value={row.url}>
          {shortUrl(row.url)} ({formatCount(row.hits)})
        </option>
      )),
    [summary],
  );
  return (
    <form className="har-filters" role="search" aria-label="Filter hits" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor="har-filter-vendor">Vendor</label>
        <select
          id="har-filter-vendor"
          value={filter.vendor}
          onChange={(event) => onChange({ ...filter, vendor: event.target.value as Vendor | '' })}
        >
          <option value="">All vendors</option>
          {vendorOptions}
        </select>
      </div>
      <div className="field">
        <label htmlFor="har-filter-event">Event</label>
        <select id="har-filter-event" value={filter.event} onChange={(event) => onChange({ ...filter, event: event.target.value })}>
          <option value="">All events</option>
          {eventOptions}
        </select>
      </div>
      <div className="field">
        <label htmlFor="har-filter-page">Page</label>
        <select id="har-filter-page" value={filter.page} onChange={(event) => onChange({ ...filter, page: event.target.value })}>
          <option value="">All pages</option>
          {pageOptions}
        </select>
      </div>
      <div className="field har-filters__search">
        <label htmlFor="har-filter-text">Search</label>
        <input
          id="har-filter-text"
          className="input"
          type="search"
          placeholder="Parameter, value, URL…"
          value={filter.text}
          onChange={(event) => onChange({ ...filter, text: event.target.value })}
        />
      </div>
      <p className="har-filters__count muted" aria-live="polite">
        {countOf(matching, 'matching hit')}
        {active ? (
          <>
            {' · '}
            <button type="button" className="har-link-button" onClick={() => onChange(EMPTY_FILTER)}>
              Clear filters
            </button>
          </>
        ) : null}
      </p>
    </form>
  );
}
