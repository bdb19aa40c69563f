import { useDeferredValue, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { AppLogDetails } from '../../../../client/features/applog/components/AppLogDetails.js';
import { clock, formatCount, KIND_LABELS, keyParams } from '../../../../client/features/applog/format.js';
import type { AppLogKind } from '../../../../lib/tools/applog/types.js';
import type { DesktopEntry } from '../decode/protocol.js';
import { useDesktop, useSession } from '../state/desktop-context.js';
import type { SourceView } from '../state/session.js';
import { choicesOf, filterEntries, isSessionStart, NO_FILTER, type StreamFilter } from '../state/stream-filter.js';
import { ExportButtons } from './ExportButtons.js';
import { SourceBanners } from './SourceBanners.js';
import { UserPropertiesPanel } from './UserPropertiesPanel.js';

const ROW = 50;
const OVERSCAN = 12;

/** The colour slot of each source (its position), so a device keeps its colour in every row. */
function useSourceSlots(sources: SourceView[]) {
  return useMemo(() => new Map(sources.map((source, index) => [source.id, index % 6])), [sources]);
}

function Row({
  entry,
  top,
  selected,
  focusable,
  label,
  slot,
  id,
  onSelect,
}: {
  entry: DesktopEntry;
  top: number;
  selected: boolean;
  /** The one row Tab reaches (roving focus): the selected one, else the first shown. */
  focusable: boolean;
  label: string;
  slot: number;
  id: string;
  onSelect: (seq: number) => void;
}) {
  const errors = entry.issues.filter((issue) => issue.severity === 'error').length;
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      className={`desk-row${selected ? ' desk-row--selected' : ''}${entry.issues.length ? ' desk-row--issues' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      tabIndex={focusable ? 0 : -1}
      onClick={() => onSelect(entry.seq)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onSelect(entry.seq);
        }
      }}
      data-testid="entry-row"
      data-kind={entry.kind}
    >
      <span className="desk-row__time" title={entry.time ?? undefined}>
        {clock(entry.time)}
      </span>
      <span className={`badge applog-kind applog-kind--${entry.kind}`}>{isSessionStart(entry) ? 'Session' : KIND_LABELS[entry.kind]}</span>
      <span className="desk-row__name" data-testid="entry-name">
        {entry.name}
      </span>
      {entry.issues.length ? (
        <span
          className={`desk-row__issues${errors ? ' desk-row__issues--error' : ''}`}
          title={entry.issues.map((issue) => issue.message).join('\n')}
        >
          {entry.issues.length} issue{entry.issues.length === 1 ? '' : 's'}
        </span>
      ) : (
        <span />
      )}
      <span className="desk-row__where">
        <span className={`desk-chip desk-chip--${slot}`} data-testid="entry-device">
          {label}
        </span>
        {entry.app ? <span className="desk-row__app">{entry.app}</span> : null}
        <span className="desk-row__params">{keyParams(entry)}</span>
      </span>
    </div>
  );
}

/** The stream: only the rows in view are rendered, so an hour of events scrolls as smoothly as ten. */
function StreamList({
  entries,
  selected,
  onSelect,
  follow,
  onFollowChange,
  labels,
  slots,
}: {
  entries: DesktopEntry[];
  selected: number | null;
  onSelect: (seq: number) => void;
  follow: boolean;
  onFollowChange: (follow: boolean) => void;
  labels: Map<string, string>;
  slots: Map<string, number>;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const idPrefix = useId();
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = ref.current;
    if (follow && element) element.scrollTop = element.scrollHeight;
  }, [follow, entries.length]);

  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(entries.length, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  const position = selected === null ? -1 : entries.findIndex((entry) => entry.seq === selected);

  const move = (to: number) => {
    if (!entries.length) return;
    const index = Math.max(0, Math.min(entries.length - 1, to));
    onSelect(entries[index].seq);
    onFollowChange(false);
    const element = ref.current;
    if (!element) return;
    if (index * ROW < element.scrollTop) element.scrollTop = index * ROW;
    else if ((index + 1) * ROW > element.scrollTop + element.clientHeight) element.scrollTop = (index + 1) * ROW - element.clientHeight;
    // The row exists once the list has rendered at its new scroll position.
    requestAnimationFrame(() => document.getElementById(`${idPrefix}-${entries[index].seq}`)?.focus());
  };

  return (
    <div
      ref={ref}
      className="desk-list"
      role="listbox"
      aria-label="Event stream"
      tabIndex={-1}
      onScroll={(event) => {
        const element = event.currentTarget;
        setScrollTop(element.scrollTop);
        const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < ROW;
        if (atBottom !== follow) onFollowChange(atBottom);
      }}
      onKeyDown={(event) => {
        const keys: Record<string, number> = {
          ArrowDown: position + 1,
          ArrowUp: position - 1,
          PageDown: position + Math.floor(height / ROW),
          PageUp: position - Math.floor(height / ROW),
          Home: 0,
          End: entries.length - 1,
        };
        if (event.key in keys) {
          event.preventDefault();
          move(keys[event.key]);
        }
      }}
    >
      <div className="desk-list__inner" style={{ height: entries.length * ROW }}>
        {entries.slice(first, last).map((entry, offset) => (
          <Row
            key={`${entry.seq}`}
            id={`${idPrefix}-${entry.seq}`}
            entry={entry}
            top={(first + offset) * ROW}
            selected={entry.seq === selected}
            focusable={position >= 0 ? entry.seq === selected : first + offset === first}
            label={labels.get(entry.source) ?? entry.source}
            slot={slots.get(entry.source) ?? 0}
            onSelect={onSelect}
          />
        ))}
      </div>
    </div>
  );
}

function Filters({
  filter,
  onChange,
  sources,
  apps,
  names,
}: {
  filter: StreamFilter;
  onChange: (next: StreamFilter) => void;
  sources: SourceView[];
  apps: string[];
  names: string[];
}) {
  const id = useId();
  const set = <K extends keyof StreamFilter>(key: K, value: StreamFilter[K]) => onChange({ ...filter, [key]: value });
  return (
    <div className="desk-filters" role="search" aria-label="Filter the stream">
      <div className="field desk-filters__search">
        <label htmlFor={`${id}-search`}>Search</label>
        <input
          id={`${id}-search`}
          type="search"
          className="input"
          placeholder="Name, parameter or value"
          value={filter.search}
          onChange={(event) => set('search', event.target.value)}
        />
      </div>
      {sources.length > 1 ? (
        <div className="field">
          <label htmlFor={`${id}-source`}>Device</label>
          <select id={`${id}-source`} className="input" value={filter.source} onChange={(event) => set('source', event.target.value)}>
            <option value="">All devices</option>
            {sources.map((source) => (
              <option key={source.id} value={source.id}>
                {source.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-app`}>App</label>
        <select id={`${id}-app`} className="input" value={filter.app} onChange={(event) => set('app', event.target.value)}>
          <option value="">All apps</option>
          {apps.map((app) => (
            <option key={app}>{app}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-kind`}>Kind</label>
        <select
          id={`${id}-kind`}
          className="input"
          value={filter.kind}
          onChange={(event) => set('kind', event.target.value as StreamFilter['kind'])}
        >
          <option value="">All kinds</option>
          {(Object.keys(KIND_LABELS) as AppLogKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
          <option value="session">Session starts</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Event name</label>
        <select id={`${id}-name`} className="input" value={filter.name} onChange={(event) => set('name', event.target.value)}>
          <option value="">All events</option>
          {names.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </div>
    </div>
  );
}

function Summary({ sources }: { sources: SourceView[] }) {
  const total = (pick: (source: SourceView) => number) => sources.reduce((sum, source) => sum + pick(source), 0);
  const stats: [string, number, boolean?][] = [
    ['Events', total((s) => s.summary?.events ?? 0)],
    ['Screen views', total((s) => s.summary?.screens ?? 0)],
    ['User properties', total((s) => s.summary?.userPropertyChanges ?? 0)],
    ['Consent changes', total((s) => s.summary?.consentChanges ?? 0)],
    ['Uploads', total((s) => s.summary?.uploads ?? 0)],
    ['Issues', total((s) => s.summary?.issues ?? 0), true],
  ];
  return (
    <dl className="desk-stats" aria-label="Session summary">
      {stats.map(([label, value, bad]) => (
        <div key={label} className={bad && value ? 'desk-stats__bad' : undefined}>
          <dt>{label}</dt>
          <dd data-testid={`stat-${label.toLowerCase().replace(/ /g, '-')}`}>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function EmptyStream({ hasSources }: { hasSources: boolean }) {
  if (!hasSources) {
    return (
      <div className="desk-empty" data-testid="empty-stream">
        <h2>Watch your app’s Firebase events live</h2>
        <ol className="desk-steps">
          <li>Connect a phone or start an emulator: it appears under Devices.</li>
          <li>
            Click <strong>Watch</strong>. On Android, turn Firebase debug mode on for your app in one click.
          </li>
          <li>Use the app: every event shows here the moment the SDK logs it, checked against GA4’s rules. Nothing is uploaded.</li>
        </ol>
        <p className="muted">Or open a log file captured earlier (adb logcat, Android Studio, Xcode, Console).</p>
      </div>
    );
  }
  return (
    <div className="desk-empty" data-testid="waiting-stream">
      <h2>Waiting for events</h2>
      <p className="muted">
        Use the app on the device. Nothing yet? Check that Firebase debug logging is on: on Android turn debug mode on for the app (left);
        on iOS launch it with <code>-FIRDebugEnabled</code>.
      </p>
    </div>
  );
}

/** The live view: what the devices log, decoded and checked, with filters, pause and details. */
export function StreamView() {
  const { licence } = useDesktop();
  const session = useSession();
  const [filter, setFilter] = useState<StreamFilter>(NO_FILTER);
  const deferredFilter = useDeferredValue(filter);
  const [selected, setSelected] = useState<number | null>(null);
  const [follow, setFollow] = useState(true);
  const [pausedAt, setPausedAt] = useState<number | null>(null);
  const labels = useMemo(() => new Map(session.sources.map((source) => [source.id, source.label])), [session.sources]);
  const slots = useSourceSlots(session.sources);

  // A new session or a recording starts with fresh filters and no selection.
  const viewKey = `${session.viewing.kind}:${session.sessionId}`;
  const [lastViewKey, setLastViewKey] = useState(viewKey);
  if (viewKey !== lastViewKey) {
    setLastViewKey(viewKey);
    setFilter(NO_FILTER);
    setSelected(null);
    setPausedAt(null);
    setFollow(true);
  }

  const { entries, version } = session;
  const visibleUpTo = pausedAt ?? entries.length;
  const shown = useMemo(
    () => filterEntries(entries.slice(0, visibleUpTo), deferredFilter, labels),
    // `version` changes whenever entries (mutated in place) do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [version, visibleUpTo, deferredFilter, labels],
  );
  const choices = useMemo(
    () => choicesOf(entries),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [version],
  );
  const selectedEntry = selected === null ? null : (entries[selected] ?? null);
  const waiting = pausedAt === null ? 0 : entries.length - pausedAt;

  const total = entries.length;
  // Pausing holds back what arrives: offered while a source may still send (or to resume).
  const live = session.sources.some(
    (source) => source.state === 'starting' || source.state === 'streaming' || source.state === 'unplugged',
  );
  return (
    <div className="desk-stream">
      <SourceBanners />
      <div className="desk-toolbar">
        <Summary sources={session.sources} />
        <div className="desk-toolbar__actions">
          <button
            type="button"
            className="button button--small"
            aria-pressed={pausedAt !== null}
            onClick={() => setPausedAt(pausedAt === null ? entries.length : null)}
            disabled={session.viewing.kind === 'recording' || (pausedAt === null && !live)}
            title={pausedAt === null && !live ? 'Nothing is being watched: watch a device to pause its stream' : undefined}
          >
            {pausedAt === null ? 'Pause' : `Resume${waiting ? ` (${formatCount(waiting)} new)` : ''}`}
          </button>
          <ExportButtons shown={shown} paid={licence.paid} />
        </div>
      </div>
      <Filters filter={filter} onChange={setFilter} sources={session.sources} apps={choices.apps} names={choices.names} />
      <div className="desk-count">
        <p className="muted" aria-live="polite" data-testid="entry-count">
          {shown.length === total ? `${formatCount(total)} entries` : `${formatCount(shown.length)} of ${formatCount(total)} entries`}
          {pausedAt !== null ? ' · paused' : ''}
          {!follow && pausedAt === null && total ? (
            <>
              {' · '}
              <button type="button" className="applog-link" onClick={() => setFollow(true)}>
                Follow the newest
              </button>
            </>
          ) : null}
        </p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={filter.onlyIssues}
            onChange={(event) => setFilter({ ...filter, onlyIssues: event.target.checked })}
          />
          Only entries with issues
        </label>
      </div>
      <div className="desk-main">
        <div className="desk-main__list">
          {total === 0 ? (
            <EmptyStream hasSources={session.sources.length > 0} />
          ) : shown.length === 0 ? (
            <div className="desk-empty">
              <p>No entry matches the filters.</p>
              <button type="button" className="button button--small" onClick={() => setFilter(NO_FILTER)}>
                Clear the filters
              </button>
            </div>
          ) : (
            <StreamList
              entries={shown}
              selected={selected}
              onSelect={setSelected}
              follow={follow && pausedAt === null}
              onFollowChange={setFollow}
              labels={labels}
              slots={slots}
            />
          )}
        </div>
        <div className="desk-main__details">
          {selectedEntry ? (
            <p className="desk-details__where" data-testid="details-where">
              <span className={`desk-chip desk-chip--${slots.get(selectedEntry.source) ?? 0}`}>{labels.get(selectedEntry.source)}</span>{' '}
              {selectedEntry.app ? <code>{selectedEntry.app}</code> : null}
            </p>
          ) : null}
          <AppLogDetails entry={selectedEntry} />
          <UserPropertiesPanel sources={session.sources} selectedSource={selectedEntry?.source ?? null} />
        </div>
      </div>
    </div>
  );
}
