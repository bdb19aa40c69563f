import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { AppLogKind, AppLogPlatform, AppLogResult } from '../../../../lib/tools/applog/types.js';
import { AppLogDetails } from './AppLogDetails.js';
import { AppLogIssues } from './AppLogIssues.js';
import { AppLogTimeline } from './AppLogTimeline.js';
import { AppLogUserProperties } from './AppLogUserProperties.js';
import { countOf, formatCount, KIND_LABELS, PLATFORM_LABELS, searchText } from '../format.js';
import type { PlatformChoice } from '../hooks/useAppLogAnalysis.js';
import '../applog.css';

const PAGE = 200;

interface Props {
  result: AppLogResult;
  source: string;
  detected: AppLogPlatform | null;
  choice: PlatformChoice;
  durationMs: number;
  onExport: () => void;
  onReanalyse: (platform: AppLogPlatform) => void;
}

/**
 * Summary, filters, the stream, the selected entry's details, user properties and issues. Mounted
 * per analysis (keyed by its run): the first event or screen view starts selected.
 */
export function AppLogResults({ result, source, detected, choice, durationMs, onExport, onReanalyse }: Props) {
  const id = useId();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'' | AppLogKind>('');
  const [onlyIssues, setOnlyIssues] = useState(false);
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState(PAGE);
  const [selected, setSelected] = useState<number | null>(
    () => result.entries.find((entry) => entry.kind === 'event' || entry.kind === 'screen')?.index ?? null,
  );
  const deferredSearch = useDeferredValue(search.trim().toLowerCase());

  const names = useMemo(
    () =>
      [...new Set(result.entries.filter((entry) => entry.kind === 'event' || entry.kind === 'screen').map((entry) => entry.name))].sort(),
    [result],
  );
  // Built once per result, on the first search (not on every keystroke).
  const searching = deferredSearch !== '';
  const haystacks = useMemo(() => (searching ? result.entries.map(searchText) : null), [result, searching]);
  const filtered = useMemo(
    () =>
      result.entries.filter(
        (entry) =>
          (!name || entry.name === name) &&
          (!kind || entry.kind === kind) &&
          (!onlyIssues || entry.issues.length > 0) &&
          (!haystacks || haystacks[entry.index].includes(deferredSearch)),
      ),
    [result, name, kind, onlyIssues, haystacks, deferredSearch],
  );
  const select = (index: number) => {
    setSelected(index);
    const position = filtered.findIndex((entry) => entry.index === index);
    if (position >= shown) setShown(position + 1);
  };
  const other: AppLogPlatform = result.platform === 'android' ? 'ios' : 'android';
  const { summary } = result;

  return (
    <div className="applog-results">
      <section className="applog-summary card" aria-label="Analysis summary">
        <div className="applog-summary__head">
          <p className="applog-summary__platform">
            <span className="badge badge--accent" data-testid="applog-platform">
              {PLATFORM_LABELS[result.platform]}
            </span>{' '}
            <span className="muted">
              {choice === 'auto' ? (detected ? 'detected automatically' : 'assumed: no platform recognised') : 'chosen by you'} · {source} ·{' '}
              {countOf(result.totalLines, 'line')} ({formatCount(result.relevantLines)} from Firebase) in {(durationMs / 1000).toFixed(1)} s
            </span>
          </p>
          <div className="applog-summary__actions">
            <button type="button" className="button button--small button--ghost" onClick={() => onReanalyse(other)}>
              Analyse as {PLATFORM_LABELS[other]}
            </button>
            <button type="button" className="button button--small button--primary" onClick={onExport}>
              Export JSON
            </button>
          </div>
        </div>
        <dl className="applog-stats">
          <div>
            <dt>Events</dt>
            <dd>{formatCount(summary.events)}</dd>
          </div>
          <div>
            <dt>Distinct names</dt>
            <dd>{formatCount(summary.distinctEventNames)}</dd>
          </div>
          <div>
            <dt>Screen views</dt>
            <dd>{formatCount(summary.screens)}</dd>
          </div>
          <div>
            <dt>User property changes</dt>
            <dd>{formatCount(summary.userPropertyChanges)}</dd>
          </div>
          <div>
            <dt>Uploads</dt>
            <dd>{formatCount(summary.uploads)}</dd>
          </div>
          {summary.consentChanges > 0 ? (
            <div>
              <dt>Consent changes</dt>
              <dd>{formatCount(summary.consentChanges)}</dd>
            </div>
          ) : null}
          <div className={summary.issues ? 'applog-stats__bad' : undefined}>
            <dt>Issues</dt>
            <dd>{formatCount(summary.issues)}</dd>
          </div>
        </dl>
        {result.unrecognisedCount > 0 ? (
          <details className="applog-unrecognised">
            <summary>{countOf(result.unrecognisedCount, 'Firebase line')} not decoded</summary>
            <ul>
              {result.unrecognised.map((line) => (
                <li key={line.line}>
                  <span className="muted">line {line.line}:</span> <code>{line.text}</code>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>

      <div className="applog-filters" role="search" aria-label="Filter the stream">
        <div className="field">
          <label htmlFor={`${id}-search`}>Search</label>
          <input
            id={`${id}-search`}
            type="search"
            className="input"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setShown(PAGE);
            }}
            placeholder="Name, parameter or value"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Event name</label>
          <select
            id={`${id}-name`}
            className="input"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setShown(PAGE);
            }}
          >
            <option value="">All events</option>
            {names.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-kind`}>Kind</label>
          <select
            id={`${id}-kind`}
            className="input"
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as '' | AppLogKind);
              setShown(PAGE);
            }}
          >
            <option value="">All kinds</option>
            {(Object.keys(KIND_LABELS) as AppLogKind[]).map((each) => (
              <option key={each} value={each}>
                {KIND_LABELS[each]}
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox applog-filters__issues">
          <input
            type="checkbox"
            checked={onlyIssues}
            onChange={(event) => {
              setOnlyIssues(event.target.checked);
              setShown(PAGE);
            }}
          />
          Only entries with issues
        </label>
      </div>

      <div className="applog-main">
        <AppLogTimeline
          entries={filtered}
          total={filtered.length}
          shown={shown}
          selected={selected}
          onSelect={select}
          onShowMore={() => setShown((count) => count + PAGE)}
        />
        <AppLogDetails entry={selected === null ? null : (result.entries[selected] ?? null)} />
      </div>

      <div className="applog-panels">
        <AppLogUserProperties properties={result.userProperties} onSelect={select} />
        <AppLogIssues entries={result.entries} onSelect={select} />
      </div>
    </div>
  );
}
