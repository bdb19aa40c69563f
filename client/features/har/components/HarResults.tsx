import { useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Hit } from '../../../../lib/tools/har/types.js';
import { countMatches } from '../../../../lib/tools/har/summary.js';
import { useToast } from '../../../components/Toaster.js';
import { countOf } from '../format.js';
import { VendorNamesContext, vendorNamesOf } from '../vendor-names.js';
import type { DoneResult } from '../hooks/useHarWorker.js';
import type { HitFilter } from '../protocol.js';
import { HarDropZone } from './HarDropZone.js';
import { EMPTY_FILTER, HarFilters } from './HarFilters.js';
import { HarHitDetail } from './HarHitDetail.js';
import { HarHitList, PAGE_SIZE } from './HarHitList.js';
import { HarSummaryChips } from './HarSummaryChips.js';
import { HarWarnings } from './HarWarnings.js';
import '../har.css';

const isEmpty = (filter: HitFilter) =>
  !filter.vendor && !filter.kind && !filter.event && !filter.page && !filter.show && !filter.text.trim();

interface Props {
  result: DoneResult;
  onFile: (file: File) => void;
  /** The worker's answers: the ids matching a filter, one hit's details, the JSON export. */
  askFilter: (filter: HitFilter) => Promise<Int32Array | null>;
  askHit: (id: number) => Promise<Hit | null>;
  exportJson: () => Promise<Blob | null>;
}

/**
 * One analysed file: summary, warnings, the filterable list of hits and the selected hit's details.
 * Mounted per analysis (keyed by its run), so a new file starts unfiltered, on page 1, with nothing
 * selected.
 */
export function HarResults({ result, onFile, askFilter, askHit, exportJson }: Props) {
  const toast = useToast();
  const [filter, setFilter] = useState<HitFilter>(EMPTY_FILTER);
  /** The worker's answer for the latest non-empty filter (kept on screen until the next arrives). */
  const [found, setFound] = useState<Int32Array | null>(null);
  const [page, setPage] = useState(0);
  /** The selected hit; its details arrive from the worker (the previous hit stays shown meanwhile). */
  const [selected, setSelected] = useState<{ id: number; hit: Hit | null } | null>(null);
  const [exporting, setExporting] = useState(false);
  const selection = useRef(0);
  const detailRef = useRef<HTMLDivElement>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);

  // Filtering runs in the worker, which holds every decoded parameter; typing is debounced.
  useEffect(() => {
    if (isEmpty(filter)) return;
    let stale = false;
    const timer = window.setTimeout(
      () => {
        void askFilter(filter).then((ids) => {
          if (!stale && ids) setFound(ids);
        });
      },
      filter.text ? 150 : 0,
    );
    return () => {
      stale = true;
      window.clearTimeout(timer);
    };
  }, [filter, askFilter]);

  const ids = isEmpty(filter) ? null : found;
  const rows = result.rows;
  const vendorNames = useMemo(() => vendorNamesOf(result.summary), [result.summary]);
  const total = ids ? ids.length : rows.length;
  // The filters' line counts as the summary chips do: hits, and other requests apart.
  const matching = useMemo(() => countMatches(rows, ids), [rows, ids]);
  const pageRows = useMemo(() => {
    const from = page * PAGE_SIZE;
    if (!ids) return rows.slice(from, from + PAGE_SIZE);
    return Array.from(ids.subarray(from, from + PAGE_SIZE), (id) => rows[id]!);
  }, [ids, rows, page]);

  const changeFilter = (next: HitFilter) => {
    setFilter(next);
    if (isEmpty(next)) setFound(null);
    setPage(0);
  };

  /** Selects a hit; opening it (click, Enter, a warning's link) also moves the focus to its details once they are there. */
  const select = (hitId: number, how: 'open' | 'move') => {
    const request = ++selection.current;
    setSelected((current) => ({ id: hitId, hit: current?.hit ?? null }));
    void askHit(hitId).then((hit) => {
      if (selection.current !== request) return;
      flushSync(() => setSelected({ id: hitId, hit }));
      if (how === 'open') detailHeading.current?.focus();
    });
  };

  const close = () => {
    const id = selected?.id;
    selection.current += 1;
    setSelected(null);
    // The Close button goes away with the details: the focus returns to the hit in the list.
    document.querySelector<HTMLElement>(`.har-hit[data-hit-id="${id}"]`)?.focus();
  };

  const showHit = (hitId: number) => {
    let position = ids ? ids.indexOf(hitId) : hitId;
    if (position === -1) {
      // The hit is filtered out: clear the filters so that it is listed where it belongs.
      changeFilter(EMPTY_FILTER);
      position = hitId;
    }
    setPage(Math.floor(position / PAGE_SIZE));
    select(hitId, 'open');
    window.requestAnimationFrame(() => detailRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  };

  const download = async () => {
    setExporting(true);
    const blob = await exportJson();
    setExporting(false);
    if (!blob) return toast('The export failed.', 'error', { key: 'har-export' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `${result.fileName.replace(/\.(har|json)$/i, '')}.hits.json`;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toast(`Exported ${countOf(result.summary.rows, 'decoded request')} as JSON`, 'success', { key: 'har-export' });
  };

  return (
    <VendorNamesContext.Provider value={vendorNames}>
      <div className="har-results">
        <div className="har-results__top">
          <HarSummaryChips summary={result.summary} fileName={result.fileName} bytes={result.bytes} timings={result.timings} />
          <div className="har-results__actions">
            <button type="button" className="button button--small" onClick={() => void download()} disabled={exporting}>
              {exporting ? 'Exporting…' : 'Export JSON'}
            </button>
            <HarDropZone onFile={onFile} compact />
          </div>
        </div>
        {result.summary.rows === 0 ? (
          <div className="empty-state">
            <h3>No analytics hits in this file</h3>
            <p>
              {countOf(result.summary.entries, 'request')} {result.summary.entries === 1 ? 'was' : 'were'} read, none of them to an
              analytics, advertising, tag manager or session replay endpoint the analyser knows. Was the Network panel recording while the
              page loaded, and are ad blockers off?
            </p>
          </div>
        ) : (
          <>
            <HarWarnings warnings={result.warnings} byCode={result.summary.warningsByCode} onShowHit={showHit} />
            <section className="har-browser" aria-label="Hits">
              <h2 className="visually-hidden">Hits</h2>
              <HarFilters summary={result.summary} filter={filter} onChange={changeFilter} matching={matching} />
              <div className="har-browser__grid">
                <HarHitList
                  rows={pageRows}
                  page={page}
                  total={total}
                  selectedId={selected?.id ?? null}
                  onSelect={select}
                  onPage={setPage}
                />
                <div ref={detailRef} className="har-browser__detail">
                  {selected?.hit ? (
                    <HarHitDetail
                      hit={selected.hit}
                      warnings={result.warnings}
                      onClose={close}
                      onShowHit={showHit}
                      headingRef={detailHeading}
                    />
                  ) : (
                    <div className="empty-state har-detail__empty">
                      <h3>{selected === null ? 'Select a hit' : 'Loading…'}</h3>
                      <p>Its decoded parameters, items, consent state and raw request appear here.</p>
                    </div>
                  )}
                </div>
              </div>
            </section>
          </>
        )}
      </div>
    </VendorNamesContext.Provider>
  );
}
