import { useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { HarHitDetail } from '../../../../client/features/har/components/HarHitDetail.js';
import { VendorNamesContext } from '../../../../client/features/har/vendor-names.js';
import { SegmentedControl } from '../../../../client/components/SegmentedControl.js';
import { useToast } from '../../../../client/components/Toaster.js';
import type { HarWarning } from '../../../../lib/tools/har/types.js';
import { isLicensed } from '../shared/licence.js';
import type { PanelMessage, PanelReply } from '../shared/messages.js';
import { ConsentView } from './components/ConsentView.js';
import { Filters } from './components/Filters.js';
import { Header } from './components/Header.js';
import { PushDetail } from './components/PushDetail.js';
import { type Selection, Timeline } from './components/Timeline.js';
import { WarningsView } from './components/WarningsView.js';
import { downloadCsv, downloadHar, exportName } from './exports.js';
import { exportedCount, formatCount, VENDOR_NAMES } from './format.js';
import { useCapture } from './hooks/useCapture.js';
import { useLicence } from './hooks/useLicence.js';
import { useSettings } from './hooks/useSettings.js';
import { useTarget } from './hooks/useTarget.js';
import { useTheme } from './hooks/useTheme.js';
import { type Filter, matchingHits, NO_FILTER, timelineRows } from './timeline.js';

type View = 'timeline' | 'consent' | 'warnings';

const WIDE = '(min-width: 760px)';
function useWide(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const query = matchMedia(WIDE);
      query.addEventListener('change', notify);
      return () => query.removeEventListener('change', notify);
    },
    () => matchMedia(WIDE).matches,
  );
}

/** Whether the extension may read this page (a person can withhold sites in the browser's extension settings). */
function useHostAccess(url: string | null): { allowed: boolean; origin: string | null } {
  const origin = url && /^https?:/.test(url) ? new URL(url).origin : null;
  const [known, setKnown] = useState<{ origin: string; allowed: boolean } | null>(null);
  useEffect(() => {
    if (!origin) return;
    const check = () =>
      void chrome.permissions.contains({ origins: [`${origin}/*`] }).then(
        (allowed) => setKnown({ origin, allowed }),
        () => setKnown({ origin, allowed: true }),
      );
    check();
    chrome.permissions.onAdded.addListener(check);
    chrome.permissions.onRemoved.addListener(check);
    return () => {
      chrome.permissions.onAdded.removeListener(check);
      chrome.permissions.onRemoved.removeListener(check);
    };
  }, [origin]);
  return { allowed: known?.origin !== origin || known.allowed, origin };
}

const ask = (message: PanelMessage) => chrome.runtime.sendMessage(message) as Promise<PanelReply>;

/**
 * The capture of one tab: the same React tree in the side panel, the DevTools panel and a tab
 * (`?tab=<id>`), from the store the service worker writes, whatever is open or closed.
 */
export function CaptureApp({ fixedTab = null, surface }: { fixedTab?: number | null; surface: Surface }) {
  const settings = useSettings();
  useTheme(settings?.colorMode ?? 'system', surface === 'devtools');
  const { tabId, following } = useTarget(fixedTab);
  // Keyed by tab: another tab starts with its own filters, selection and capture.
  return (
    <TabCapture
      key={tabId ?? 'none'}
      tabId={tabId}
      following={following}
      surface={surface}
      siteUrl={settings ? settings.siteUrl : undefined}
    />
  );
}

type Surface = 'sidepanel' | 'devtools' | 'tab';

function TabCapture({
  tabId,
  following,
  surface,
  siteUrl,
}: {
  tabId: number | null;
  following: boolean;
  surface: Surface;
  siteUrl: string | undefined;
}) {
  const toast = useToast();
  const { analysis, tab, capture, error } = useCapture(tabId);
  const licence = useLicence(siteUrl);
  const licensed = isLicensed(licence.state);
  const wide = useWide();
  const [view, setView] = useState<View>('timeline');
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const shownFilter = useDeferredValue(filter);
  const [selection, setSelection] = useState<Selection>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const url = tab?.url ?? analysis?.loads.at(-1)?.load.url ?? null;
  const access = useHostAccess(url);

  const rows = useMemo(() => (analysis ? timelineRows(analysis, shownFilter) : []), [analysis, shownFilter]);
  const matching = useMemo(() => (analysis ? matchingHits(analysis, shownFilter) : { hits: 0, others: 0 }), [analysis, shownFilter]);

  const select = (next: Selection, how: 'open' | 'move') => {
    flushSync(() => setSelection(next));
    if (how === 'open') detailHeading.current?.focus();
  };
  const showHit = (id: number) => {
    if (analysis && !timelineRows(analysis, filter).some((row) => row.kind === 'hit' && row.hit.id === id))
      setFilter({ ...NO_FILTER, pushes: filter.pushes });
    setView('timeline');
    select({ kind: 'hit', id }, 'open');
  };
  const close = () => {
    const id = selection?.kind === 'hit' ? selection.id : null;
    setSelection(null);
    if (id !== null) requestAnimationFrame(() => document.querySelector<HTMLElement>(`.row--hit[data-hit-id="${id}"]`)?.focus());
  };

  const clear = async () => {
    if (tabId === null) return;
    const reply = await ask({ type: 'clear', tabId });
    setSelection(null);
    toast(reply.ok ? 'Capture cleared' : `Could not clear: ${reply.error}`, reply.ok ? 'success' : 'error', { key: 'clear' });
  };
  const exportAs = (kind: 'har' | 'csv') => {
    if (!analysis || !capture || !licensed) return;
    const name = exportName(url);
    if (kind === 'har') downloadHar(capture, name);
    else downloadCsv(analysis, name);
    toast(`Exported ${exportedCount(analysis.summary)} as ${kind.toUpperCase()}`, 'success', { key: 'export' });
  };

  const hit = selection?.kind === 'hit' ? analysis?.hits[selection.id] : undefined;
  const push = selection?.kind === 'push' ? analysis?.dataLayer.find((record) => record.seq === selection.seq) : undefined;
  const networkError = hit && capture ? capture.errorOf(hit) : null;
  const detail = hit ? (
    <>
      {networkError ? (
        <p className="alert alert--error detail-error" data-testid="network-error">
          The browser reported {networkError}
          {networkError.includes('BLOCKED_BY_CLIENT') ? ': an extension (an ad blocker?) stopped this request.' : '.'}
        </p>
      ) : null}
      <VendorNamesContext.Provider value={VENDOR_NAMES}>
        <HarHitDetail
          hit={hit}
          warnings={licensed ? (analysis!.warnings as unknown as HarWarning[]) : []}
          onClose={close}
          onShowHit={showHit}
          headingRef={detailHeading}
        />
      </VendorNamesContext.Provider>
    </>
  ) : push ? (
    <PushDetail record={push} onClose={close} headingRef={detailHeading} />
  ) : null;

  const warningCount = analysis ? analysis.summary.warnings.error + analysis.summary.warnings.warning : 0;
  const empty = !analysis || (analysis.hits.length === 0 && analysis.dataLayer.length === 0);

  return (
    <div className={`panel panel--${wide ? 'wide' : 'narrow'} panel--${surface}`}>
      <Header
        url={url}
        hits={analysis?.summary.hits ?? 0}
        secondary={analysis?.summary.secondary ?? 0}
        containers={analysis?.summary.containers ?? 0}
        pushes={analysis?.dataLayer.length ?? 0}
        loads={analysis ? analysis.loads.filter((load) => load.load.transition !== 'earlier').length : 0}
        licence={licence.state}
        canExport={licensed}
        empty={empty}
        onClear={() => void clear()}
        onExportHar={() => exportAs('har')}
        onExportCsv={() => exportAs('csv')}
        onPopOut={
          surface === 'sidepanel' && tabId !== null
            ? () => void chrome.tabs.create({ url: chrome.runtime.getURL(`sidepanel.html?tab=${tabId}`) })
            : null
        }
      />
      {!access.allowed && access.origin ? (
        <div className="alert alert--error notice" role="alert">
          <span>Hitscope is not allowed to read {access.origin}: nothing from this site is captured.</span>
          <button
            type="button"
            className="button button--small"
            onClick={() => void chrome.permissions.request({ origins: [`${access.origin}/*`] })}
          >
            Allow on this site
          </button>
        </div>
      ) : null}
      {tab && tab.dropped > 0 ? (
        <p className="alert alert--info notice" role="status" data-testid="dropped-notice">
          {formatCount(tab.dropped)} older {tab.dropped === 1 ? 'hit was' : 'hits were'} dropped to keep memory bounded: a tab keeps its
          newest hits. Clear the capture to start again.
        </p>
      ) : null}
      {licence.state?.tier === 'paid' && licence.state.mode === 'grace' ? (
        <p className="alert alert--info notice" role="status">
          The licence could not be confirmed with the site since {new Date(licence.state.expiresAt).toLocaleDateString('en-GB')}; it keeps
          working until {new Date(licence.state.graceUntil).toLocaleDateString('en-GB')}.
        </p>
      ) : null}
      {!licensed && licence.state && licence.state.tier === 'free' && licence.state.reason !== 'none' ? (
        <p className="alert alert--error notice" role="status" data-testid="licence-problem">
          Licence not active: {licence.state.detail}. The free features keep working.
        </p>
      ) : null}

      <SegmentedControl<View>
        label="View"
        className="panel__views"
        value={view}
        onChange={setView}
        options={[
          { value: 'timeline', label: 'Timeline' },
          { value: 'consent', label: 'Consent' },
          { value: 'warnings', label: warningCount ? `Warnings (${formatCount(warningCount)})` : 'Warnings' },
        ]}
      />

      {error ? (
        <p className="alert alert--error notice" role="alert">
          The capture could not be read: {error}
        </p>
      ) : !analysis ? (
        <div className="panel__loading" aria-busy="true">
          <div className="skeleton panel__skeleton" />
          <div className="skeleton panel__skeleton" />
          <div className="skeleton panel__skeleton" />
        </div>
      ) : view === 'consent' ? (
        <main className="panel__scroll">
          <ConsentView analysis={analysis} onShowHit={showHit} />
        </main>
      ) : view === 'warnings' ? (
        <main className="panel__scroll">
          <WarningsView analysis={analysis} licensed={licensed} onShowHit={showHit} />
        </main>
      ) : empty ? (
        <main className="panel__scroll">
          <div className="empty-state view-empty" data-testid="capture-empty">
            <h3>Waiting for hits</h3>
            {access.allowed ? (
              <p>
                {following ? 'Hits of the tab beside this panel appear here as they are sent. ' : ''}Reload the page to see a page load from
                its first request: capture keeps going across reloads and navigations until you clear it.
              </p>
            ) : (
              <p>Allow Hitscope on this site (above), then reload the page: capture starts from its first request.</p>
            )}
          </div>
        </main>
      ) : (
        <main className={`panel__main${detail ? ' panel__main--detail' : ''}`}>
          <Filters summary={analysis.summary} pushes={analysis.dataLayer} filter={filter} onChange={setFilter} matching={matching} />
          <div className="panel__split">
            <div className="panel__list">
              <Timeline analysis={analysis} rows={rows} selection={selection} onSelect={select} follow={selection === null} />
            </div>
            {detail ? <div className="panel__detail">{detail}</div> : wide ? <EmptyDetail /> : null}
          </div>
        </main>
      )}
    </div>
  );
}

function EmptyDetail() {
  return (
    <div className="panel__detail panel__detail--empty">
      <div className="empty-state">
        <h3>Select a hit or a push</h3>
        <p>Its decoded parameters, items, consent state and raw request appear here.</p>
      </div>
    </div>
  );
}
