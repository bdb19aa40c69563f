import type { KeyboardEvent } from 'react';
import { Pager } from '../../../components/Pager.js';
import { countOf, formatCount, formatTime, shortUrl } from '../format.js';
import type { HitRow } from '../protocol.js';
import { useVendorName } from '../vendor-names.js';
import '../har.css';

export const PAGE_SIZE = 50;

/** What a row is when it is not a plain hit: not valid, secondary (and which hit it follows), a container. */
function RowMark({ row }: { row: HitRow }) {
  if (row.invalid) {
    return (
      <>
        <span className={`har-mark har-mark--${row.invalid === 'malformed' ? 'error' : 'warning'}`}>
          {row.invalid === 'malformed' ? 'malformed' : 'older format'}
        </span>{' '}
      </>
    );
  }
  if (row.secondary) {
    return (
      <>
        <span className="har-mark" title={row.secondary}>
          secondary{row.follows !== null ? ` of #${row.follows + 1}` : ''}
        </span>{' '}
      </>
    );
  }
  if (row.container) {
    return (
      <>
        <span className="har-mark">loaded</span>{' '}
      </>
    );
  }
  return null;
}

/**
 * One page of hits (PAGE_SIZE rows): a large capture has tens of thousands of hits and rendering
 * them all at once would freeze the tab. Arrow keys move the selection within the page.
 */
export function HarHitList({
  rows,
  page,
  total,
  selectedId,
  onSelect,
  onPage,
}: {
  rows: HitRow[];
  page: number;
  total: number;
  selectedId: number | null;
  onSelect: (id: number, how: 'open' | 'move') => void;
  onPage: (page: number) => void;
}) {
  const vendorLabel = useVendorName();
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const keyDown = (event: KeyboardEvent, index: number) => {
    const next = event.key === 'ArrowDown' ? index + 1 : event.key === 'ArrowUp' ? index - 1 : -1;
    if (next < 0 || next >= rows.length) return;
    event.preventDefault();
    onSelect(rows[next]!.id, 'move');
    const buttons = (event.currentTarget.closest('ol') as HTMLElement | null)?.querySelectorAll<HTMLButtonElement>('button.har-hit');
    buttons?.[next]?.focus();
  };
  if (total === 0) {
    return (
      <div className="empty-state har-list__empty">
        <h3>No hits match</h3>
        <p>Change or clear the filters.</p>
      </div>
    );
  }
  return (
    <div className="har-list">
      <ol className="har-list__rows" aria-label="Analytics hits" start={page * PAGE_SIZE + 1}>
        {rows.map((row, index) => (
          <li key={row.id}>
            <button
              type="button"
              className={`har-hit${row.id === selectedId ? ' har-hit--selected' : ''}${row.secondary || row.container ? ' har-hit--aside' : ''}`}
              aria-current={row.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(row.id, 'open')}
              onKeyDown={(event) => keyDown(event, index)}
              data-hit-id={row.id}
            >
              {/* The spaces between the parts are for the button's accessible name; the grid lays the parts out. */}
              <span className="har-hit__index">#{row.id + 1}</span>{' '}
              <span className="har-hit__type">
                {row.type}
                {row.batch ? (
                  <span className="har-hit__batch">
                    {' '}
                    · batch {row.batch.index}/{row.batch.size}
                  </span>
                ) : null}
              </span>{' '}
              <span className="har-hit__sub">
                <RowMark row={row} />
                <span className={`har-hit__vendor har-vendor har-kind--${row.kind} har-vendor--${row.vendor}`}>
                  {vendorLabel(row.vendor)}
                </span>{' '}
                <span className="har-hit__page">{shortUrl(row.page)}</span>
              </span>{' '}
              <span className="har-hit__meta">
                <span className="har-hit__time">{formatTime(row.time)}</span>{' '}
                <span className={`har-hit__status${row.status === 0 || row.status >= 400 ? ' har-hit__status--bad' : ''}`}>
                  {row.status || 'failed'}
                </span>{' '}
                {row.warnings ? (
                  <span className={`har-badge har-badge--${row.severity}`} title={countOf(row.warnings, 'warning')}>
                    {row.warnings}
                    <span className="visually-hidden"> {row.warnings === 1 ? 'warning' : 'warnings'}</span>
                  </span>
                ) : null}
              </span>
            </button>
          </li>
        ))}
      </ol>
      <div className="har-pager">
        <Pager label="Hit pages" page={page + 1} pageCount={pages} onPage={(next) => onPage(next - 1)} />
        <span className="har-pager__of">
          Hits {formatCount(page * PAGE_SIZE + 1)}–{formatCount(Math.min(total, (page + 1) * PAGE_SIZE))} of {formatCount(total)}
        </span>
      </div>
    </div>
  );
}
