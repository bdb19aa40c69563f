import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { CaptureAnalysis } from '../../../../../lib/tools/live/capture.js';
import type { Row } from '../timeline.js';
import { formatTime, loadLabel, plural, shortUrl, vendorLabel } from '../format.js';
import { VirtualList } from './VirtualList.js';

export const ROW_HEIGHT = 52;

export type Selection = { kind: 'hit'; id: number } | { kind: 'push'; seq: number } | null;

const selectionOf = (row: Row): Selection =>
  row.kind === 'hit' ? { kind: 'hit', id: row.hit.id } : row.kind === 'push' ? { kind: 'push', seq: row.record.seq } : null;
const isSelected = (row: Row, selection: Selection) =>
  selection !== null &&
  ((row.kind === 'hit' && selection.kind === 'hit' && row.hit.id === selection.id) ||
    (row.kind === 'push' && selection.kind === 'push' && row.record.seq === selection.seq));

/** A hit's consent at a glance: "A✓ Ad✗" from its gcs/gcd (Google tags), nothing for the others. */
function ConsentMarks({ analysis, hitId }: { analysis: CaptureAnalysis; hitId: number }) {
  const hit = analysis.hits[hitId]!;
  if (!hit.consent || hit.consent.source) return null;
  const state = (type: string) => hit.consent!.signals.find((signal) => signal.type === type)?.state ?? 'not set';
  const marks = [
    ['A', 'analytics_storage'],
    ['Ad', 'ad_storage'],
  ] as const;
  return (
    <span className="row__consent" title={hit.consent.text}>
      {marks.map(([short, type]) => (
        <span key={type} className={`consent-mark consent-mark--${state(type).replace(' ', '-')}`}>
          {short}
          <span aria-hidden="true">{state(type) === 'granted' ? '✓' : state(type) === 'denied' ? '✗' : '–'}</span>
          <span className="visually-hidden">
            {' '}
            {type.replace('_', ' ')} {state(type)};{' '}
          </span>
        </span>
      ))}
    </span>
  );
}

/**
 * The capture as one list in time order: page-load headings, hits and dataLayer pushes. Arrow keys
 * move between rows; Enter or a click opens the row's details.
 */
export function Timeline({
  analysis,
  rows,
  selection,
  onSelect,
  follow,
}: {
  analysis: CaptureAnalysis;
  rows: Row[];
  selection: Selection;
  onSelect: (selection: Selection, how: 'open' | 'move') => void;
  follow: boolean;
}) {
  const focusIndex = useRef<number | null>(null);
  const selectedIndex = rows.findIndex((row) => isSelected(row, selection));

  useEffect(() => {
    if (focusIndex.current === null) return;
    const index = focusIndex.current;
    focusIndex.current = null;
    document.querySelector<HTMLButtonElement>(`.vlist__row[data-index="${index}"] button`)?.focus();
  });

  const keyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    let next = index + step;
    while (rows[next]?.kind === 'load') next += step;
    const row = rows[next];
    if (!row) return;
    focusIndex.current = next;
    onSelect(selectionOf(row), 'move');
  };

  const render = (row: Row, index: number) => {
    if (row.kind === 'load') {
      const { load } = row.load;
      return (
        <div className="row row--load">
          <span className="row__title">{loadLabel(load.index, load.transition)}</span>
          <span className="row__sub">
            <span className="row__page">{shortUrl(load.url)}</span>
            <span className="row__counts">
              {plural(row.hits, 'hit')} · {plural(row.pushes, 'push', 'pushes')}
            </span>
          </span>
        </div>
      );
    }
    const selected = isSelected(row, selection);
    const common = {
      type: 'button' as const,
      'aria-current': selected ? ('true' as const) : undefined,
      onClick: () => onSelect(selectionOf(row), 'open'),
      onKeyDown: (event: KeyboardEvent) => keyDown(event, index),
    };
    if (row.kind === 'push') {
      return (
        <button {...common} className={`row row--push${row.consent ? ' row--consent' : ''}${selected ? ' row--selected' : ''}`}>
          <span className="row__title">
            <span className="row__kind">{row.consent ? 'consent' : 'dataLayer'}</span> {row.name}
          </span>{' '}
          <span className="row__sub">
            <span className="row__page">
              {row.record.via === 'initial' ? 'in the array before the hook' : (row.record.script ?? 'inline or unknown script')}
            </span>
            <span className="row__time">{formatTime(new Date(row.record.time).toISOString())}</span>
          </span>
        </button>
      );
    }
    const { hit } = row;
    const worst = hit.warningIds
      .map((id) => analysis.warnings[id]!.severity)
      .sort((a, b) => (a === 'error' ? -1 : b === 'error' ? 1 : a === 'warning' ? -1 : 1))[0];
    const bad = hit.status === 0 || hit.status >= 400;
    return (
      <button
        {...common}
        className={`row row--hit har-vendor har-vendor--${hit.vendor}${selected ? ' row--selected' : ''}`}
        data-hit-id={hit.id}
      >
        <span className="row__title">
          <span className="row__index">#{hit.id + 1}</span> {hit.type}
          {hit.batch ? (
            <span className="row__batch">
              {' '}
              · batch {hit.batch.index}/{hit.batch.size}
            </span>
          ) : null}
        </span>{' '}
        <span className="row__sub">
          <span className="row__vendor">{vendorLabel(hit.vendor)}</span> <span className="row__account">{hit.accountId ?? ''}</span>{' '}
          <ConsentMarks analysis={analysis} hitId={hit.id} />
          <span className={`row__status${bad ? ' row__status--bad' : ''}`}>{hit.status || 'failed'}</span>{' '}
          {worst ? (
            <span className={`har-badge har-badge--${worst}`}>
              {hit.warningIds.length}
              <span className="visually-hidden"> {hit.warningIds.length === 1 ? 'warning' : 'warnings'}</span>
            </span>
          ) : null}
        </span>
      </button>
    );
  };

  return (
    <VirtualList
      items={rows}
      rowHeight={ROW_HEIGHT}
      label="Hits and dataLayer pushes"
      keyOf={(row) => row.key}
      renderRow={render}
      follow={follow}
      reveal={selectedIndex >= 0 ? selectedIndex : null}
    />
  );
}
