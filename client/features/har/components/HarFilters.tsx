import { useMemo } from 'react';
import type { HarSummary, Vendor, VendorKind } from '../../../../lib/tools/har/types.js';
import type { MatchCount } from '../../../../lib/tools/har/summary.js';
import { countOf, formatCount, shortUrl } from '../format.js';
import type { HitFilter, RowShow } from '../protocol.js';
import '../har.css';

export const EMPTY_FILTER: HitFilter = { vendor: '', kind: '', event: '', page: '', text: '', show: '' };

/** The Vendor select's value for a whole kind of vendors. */
const KIND_PREFIX = 'kind:';

/**
 * Vendor (grouped by kind, each group with an "All …" choice for the whole kind), event, page, what to
 * show (hits only, requests that are not valid hits, secondary requests, containers) and a free-text
 * search over every decoded parameter.
 */
export function HarFilters({
  summary,
  filter,
  onChange,
  matching,
}: {
  summary: HarSummary;
  filter: HitFilter;
  onChange: (filter: HitFilter) => void;
  /** Rows the filters let through: hits, and other requests (secondary, containers) apart. */
  matching: MatchCount;
}) {
  const active = filter.vendor || filter.kind || filter.event || filter.page || filter.text || filter.show;
  // The options depend on the summary only: built once per file, not on every keystroke in Search
  // (a capture can have a thousand pages).
  const vendorOptions = useMemo(
    () =>
      summary.byKind.map((kind) => (
        <optgroup key={kind.key} label={kind.label ?? kind.key}>
          <option value={`${KIND_PREFIX}${kind.key}`}>
            All {(kind.label ?? kind.key).toLowerCase()} ({formatCount(kind.count)})
          </option>
          {summary.byVendor
            .filter((row) => row.kind === kind.key)
            .map((row) => (
              <option key={row.key} value={row.key}>
                {row.label ?? row.key} ({formatCount(row.count)})
              </option>
            ))}
        </optgroup>
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
  const showOptions: Array<[RowShow, string, number | null]> = [
    ['', 'Every request', null],
    ['hits', 'Hits only', summary.hits],
    ['invalid', 'Not valid hits', summary.invalid],
    ['secondary', 'Secondary requests', summary.secondary],
    ['containers', 'Containers and tags loaded', summary.containers],
  ];
  const vendorValue = filter.kind ? `${KIND_PREFIX}${filter.kind}` : filter.vendor;
  return (
    <form className="har-filters" role="search" aria-label="Filter hits" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor="har-filter-vendor">Vendor</label>
        <select
          id="har-filter-vendor"
          value={vendorValue}
          onChange={(event) => {
            const value = event.target.value;
            if (value.startsWith(KIND_PREFIX)) onChange({ ...filter, vendor: '', kind: value.slice(KIND_PREFIX.length) as VendorKind });
            else onChange({ ...filter, vendor: value as Vendor | '', kind: '' });
          }}
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
      <div className="field">
        <label htmlFor="har-filter-show">Show</label>
        <select id="har-filter-show" value={filter.show} onChange={(event) => onChange({ ...filter, show: event.target.value as RowShow })}>
          {showOptions
            .filter(([value, , count]) => value === '' || value === 'hits' || (count ?? 0) > 0)
            .map(([value, label, count]) => (
              <option key={value} value={value}>
                {label}
                {count === null ? '' : ` (${formatCount(count)})`}
              </option>
            ))}
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
        {countOf(matching.hits, 'matching hit')}
        {matching.others ? ` · ${countOf(matching.others, 'other request')}` : null}
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
