import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Hit } from '../../../../lib/tools/har/types.js';
import { reportToolRun } from '../../../app/report-tool-run.js';
import { useToast } from '../../../components/Toaster.js';
import { formatCount } from '../format.js';
import { HarDropZone } from './HarDropZone.js';
import { EMPTY_FILTER, HarFilters } from './HarFilters.js';
import { HarHitDetail } from './HarHitDetail.js';
import { HarHitList, PAGE_SIZE } from './HarHitList.js';
import { HarProgress } from './HarProgress.js';
import { HarSummaryChips } from './HarSummaryChips.js';
import { HarWarnings } from './HarWarnings.js';
import type { HitFilter } from '../protocol.js';
import { useHarWorker } from '../hooks/useHarWorker.js';
import '../har.css';

const isEmpty = (filter: HitFilter) => !filter.vendor && !filter.event && !filter.page && !filter.text.trim();

/** The HAR analyser: choose a file, follow the analysis, then browse, filter and export the hits. */
export function HarAnalyser() {
  const toast = useToast();
  const {
    state,
    start,
    cancel,
    filter: askFilter,
    hit: askHit,
    exportJson,
  } = useHarWorker({
    onDone: (result) => {
      reportToolRun('har');
      toast(`Analysed ${formatCount(result.summary.entries)} requests: ${formatCount(result.summary.hits)} analytics hits`, 'success');
    },
    onError: (message) => toast(message, 'error'),
  });
  const result = state.status === 'done' ? state.result : null;
  const [filter, setFilter] = useState<HitFilter>(EMPTY_FILTER);
  const [ids, setIds] = useState<Int32Array | null>(null);
  const [page, setPage] = useState(0);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [selectedHit, setSelectedHit] = useState<Hit | null>(null);
  const [focusDetail, setFocusDetail] = useState(false);
  const [exporting, setExporting] = useState(false);
  const detailRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setFilter(EMPTY_FILTER);
    setIds(null);
    setPage(0);
    setSelectedId(null);
  }, [result]);

  // A file dropped next to the drop zone would make the browser open it in place of the page.
  useEffect(() => {
    const keep = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  // Filtering runs in the worker, which holds every decoded parameter; typing is debounced.
  useEffect(() => {
    if (!result) return;
    if (isEmpty(filter)) {
      setIds(null);
      return;
    }
    let stale = false;
    const timer = window.setTimeout(
      () => {
        void askFilter(filter).then((found) => {
          if (!stale && found) setIds(found);
        });
      },
      filter.text ? 150 : 0,
    );
    return () => {
      stale = true;
      window.clearTimeout(timer);
    };
  }, [filter, result, askFilter]);

  useEffect(() => {
    if (selectedId === null) {
      setSelectedHit(null);
      return;
    }
    let stale = false;
    void askHit(selectedId).then((hit) => {
      if (!stale) setSelectedHit(hit);
    });
    return () => {
      stale = true;
    };
  }, [selectedId, askHit]);

  const rows = result?.rows ?? [];
  const total = ids ? ids.length : rows.length;
  const pageRows = useMemo(() => {
    const from = page * PAGE_SIZE;
    if (!ids) return rows.slice(from, from + PAGE_SIZE);
    return Array.from(ids.subarray(from, from + PAGE_SIZE), (id) => rows[id]!);
  }, [ids, rows, page]);

  const changeFilter = (next: HitFilter) => {
    setFilter(next);
    setPage(0);
  };

  const showHit = useCallback(
    (hitId: number) => {
      let position = ids ? ids.indexOf(hitId) : hitId;
      if (position === -1) {
        // The hit is filtered out: clear the filters so that it is listed where it belongs.
        setFilter(EMPTY_FILTER);
        setIds(null);
        position = hitId;
      }
      setPage(Math.floor(position / PAGE_SIZE));
      setSelectedId(hitId);
      setFocusDetail(true);
      window.requestAnimationFrame(() => detailRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
    },
    [ids],
  );

  const download = async () => {
    if (!result) return;
    setExporting(true);
    const blob = await exportJson();
    setExporting(false);
    if (!blob) return toast('The export failed.', 'error');
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `${result.fileName.replace(/\.(har|json)$/i, '')}.hits.json`;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toast(`Exported ${formatCount(result.summary.hits)} decoded hits as JSON`, 'success');
  };

  if (state.status === 'loading') {
    return (
      <HarProgress
        fileName={state.fileName}
        progress={state.progress}
        onCancel={() => {
          cancel();
          toast('Analysis cancelled', 'info');
        }}
      />
    );
  }

  if (state.status === 'idle') return <HarDropZone onFile={start} />;

  if (state.status === 'error') {
    return (
      <div className="har-error">
        <div className="alert alert--error" role="alert">
          <strong>{state.fileName} could not be analysed.</strong> {state.message}
        </div>
        <HarDropZone onFile={start} />
      </div>
    );
  }

  const done = state.result;
  return (
    <div className="har-results">
      <div className="har-results__top">
        <HarSummaryChips summary={done.summary} fileName={done.fileName} bytes={done.bytes} timings={done.timings} />
        <div className="har-results__actions">
          <button type="button" className="button button--small" onClick={() => void download()} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export JSON'}
          </button>
          <HarDropZone onFile={start} compact />
        </div>
      </div>
      {done.summary.hits === 0 ? (
        <div className="empty-state">
          <h3>No analytics hits in this file</h3>
          <p>
            {formatCount(done.summary.entries)} requests were read, none of them to GA4, Universal Analytics, Google Ads, Floodlight or the
            Meta pixel. Was the Network panel recording while the page loaded, and are ad blockers off?
          </p>
        </div>
      ) : (
        <>
          <HarWarnings warnings={done.warnings} byCode={done.summary.warningsByCode} onShowHit={showHit} />
          <section className="har-browser" aria-label="Hits">
            <h2 className="visually-hidden">Hits</h2>
            <HarFilters summary={done.summary} filter={filter} onChange={changeFilter} matching={total} />
            <div className="har-browser__grid">
              <HarHitList
                rows={pageRows}
                page={page}
                total={total}
                selectedId={selectedId}
                onSelect={(id, how) => {
                  setSelectedId(id);
                  setFocusDetail(how === 'open');
                }}
                onPage={setPage}
              />
              <div ref={detailRef} className="har-browser__detail">
                {selectedHit ? (
                  <HarHitDetail hit={selectedHit} warnings={done.warnings} onClose={() => setSelectedId(null)} autoFocus={focusDetail} />
                ) : (
                  <div className="empty-state har-detail__empty">
                    <h3>{selectedId === null ? 'Select a hit' : 'Loading…'}</h3>
                    <p>Its decoded parameters, items, consent state and raw request appear here.</p>
                  </div>
                )}
              </div>
            </div>
          </section>
        </>
      )}
    </div>
  );
}
