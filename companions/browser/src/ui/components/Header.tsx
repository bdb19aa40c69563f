import type { LicenceState } from '../../../../../lib/licensing/client.js';
import { Icon } from '../../../../../client/components/Icon.js';
import { plural, shortUrl } from '../format.js';

interface Props {
  url: string | null;
  /** Hits that measure something (the HAR analyser's `summary.hits`). */
  hits: number;
  /** Secondary requests (pixel mirrors, follow-up pings, cookie syncs) decoded and listed, not counted as hits. */
  secondary: number;
  /** Tag manager containers and vendor tag scripts that loaded. */
  containers: number;
  pushes: number;
  loads: number;
  licence: LicenceState | null;
  canExport: boolean;
  empty: boolean;
  onClear: () => void;
  onExportHar: () => void;
  onExportCsv: () => void;
  /** Only in the side panel: opens the same view in a tab, wide. */
  onPopOut: (() => void) | null;
}

function LicenceChip({ licence }: { licence: LicenceState | null }) {
  if (!licence) return null;
  const text = licence.tier === 'paid' ? (licence.mode === 'grace' ? 'Licensed (offline)' : 'Licensed') : 'Free';
  return (
    <button
      type="button"
      className={`licence-chip licence-chip--${licence.tier}`}
      onClick={() => void chrome.runtime.openOptionsPage()}
      title="Licence and settings"
    >
      {text}
    </button>
  );
}

/** What "other requests" holds, as the web analyser's chips name it. */
function otherTitle(secondary: number, containers: number): string {
  const parts = [];
  if (secondary) parts.push(plural(secondary, 'secondary request'));
  if (containers) parts.push(plural(containers, 'container or tag loaded', 'containers and tags loaded'));
  return `${parts.join(', ')}: decoded and listed, not counted as hits`;
}

/**
 * The tab's page, what was captured, and the actions on it. Hits are counted as the web analyser
 * counts them: secondary requests and container loads are listed but counted apart.
 */
export function Header({
  url,
  hits,
  secondary,
  containers,
  pushes,
  loads,
  licence,
  canExport,
  empty,
  onClear,
  onExportHar,
  onExportCsv,
  onPopOut,
}: Props) {
  const others = secondary + containers;
  return (
    <header className="panel-header">
      <div className="panel-header__top">
        <svg className="panel-header__mark" width="20" height="20" viewBox="0 0 32 32" aria-hidden="true">
          <circle cx="16" cy="16" r="13" fill="none" stroke="currentColor" strokeWidth="3" />
          <circle cx="16" cy="16" r="4" fill="var(--accent)" />
          <path d="M16 1v7M16 24v7M1 16h7M24 16h7" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
        <h1 className="panel-header__title">
          Hitscope <span className="visually-hidden">capture of </span>
          <span className="panel-header__page" title={url ?? undefined}>
            {url ? shortUrl(url) : 'this tab'}
          </span>
        </h1>
        <LicenceChip licence={licence} />
      </div>
      <div className="panel-header__bar">
        <p className="panel-header__counts" data-testid="capture-counts">
          {plural(hits, 'hit')}
          {others ? (
            <>
              {' · '}
              <span title={otherTitle(secondary, containers)}>{plural(others, 'other request')}</span>
            </>
          ) : null}{' '}
          · {plural(pushes, 'push', 'pushes')} · {plural(loads, 'page load')}
        </p>
        <div className="panel-header__actions">
          <button
            type="button"
            className="button button--small"
            onClick={onExportHar}
            disabled={!canExport || empty}
            title={canExport ? undefined : 'Export comes with a licence'}
          >
            <Icon name="download" size={16} /> HAR
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={onExportCsv}
            disabled={!canExport || empty}
            title={canExport ? undefined : 'Export comes with a licence'}
          >
            <Icon name="download" size={16} /> CSV
          </button>
          <button type="button" className="button button--small" onClick={onClear} disabled={empty}>
            Clear
          </button>
          {onPopOut ? (
            <button type="button" className="button button--small button--ghost" onClick={onPopOut} aria-label="Open in a tab">
              <Icon name="grid" size={16} />
            </button>
          ) : null}
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => void chrome.runtime.openOptionsPage()}
            aria-label="Settings and licence"
          >
            <Icon name="settings" size={16} />
          </button>
        </div>
      </div>
    </header>
  );
}
