import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Ga4mpHistoryEntry } from '../../../../lib/api/ga4mp.js';
import { GA4MP_HISTORY_LIMIT } from '../../../../lib/tools/ga4mp/limits.js';
import { Pager } from '../../../components/Pager.js';
import { useToast } from '../../../components/Toaster.js';
import { ga4mpHistoryQuery, useClearHistory, useDeleteHistoryEntry } from '../api.js';
import { plural } from '../format.js';
import { formatDateTime } from '../../../../lib/format/date.js';
import '../ga4mp.css';

const TOAST = { key: 'ga4mp-history' };

const when = (iso: string) => formatDateTime(iso, { seconds: true });

function HistoryRow({
  entry,
  onReplay,
  onDelete,
  deleting,
}: {
  entry: Ga4mpHistoryEntry;
  onReplay: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  const streamId = entry.query.measurement_id ?? entry.query.firebase_app_id ?? '—';
  const what = entry.eventNames.join(', ') || 'payload';
  const facts = [
    `${entry.durationMs} ms`,
    entry.localMessages.length ? `sent with ${plural(entry.localMessages.length, 'validation message')}` : '',
    entry.error ?? '',
  ].filter(Boolean);
  return (
    <li className="ga4mp-history__item">
      <div className="ga4mp-history__main">
        <div className="ga4mp-history__title">
          <span className={`badge ${entry.debug ? 'badge--accent' : ''}`}>{entry.debug ? 'debug' : 'real'}</span>{' '}
          <span className="badge">{entry.region === 'eu' ? 'EU' : 'global'}</span> <code>{streamId}</code>{' '}
          <span className={`badge ${entry.ok ? 'ga4mp-badge--ok' : 'ga4mp-badge--error'}`}>
            {entry.status ?? (entry.error ? 'failed' : '—')}
          </span>
        </div>
        <p className="ga4mp-history__events">{entry.eventNames.length ? entry.eventNames.join(', ') : 'no events'}</p>
        <p className="muted ga4mp-history__meta">
          <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
          {facts.map((fact) => ` · ${fact}`).join('')}
        </p>
      </div>
      <div className="ga4mp-history__actions">
        <button
          type="button"
          className="button button--small"
          onClick={onReplay}
          aria-label={`Replay ${what} from ${when(entry.createdAt)}`}
        >
          Replay
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={onDelete}
          disabled={deleting}
          aria-label={`Delete ${what} from ${when(entry.createdAt)}`}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

/** The user's sent payloads, newest first, with replay (into the form) and delete. */
export function HistoryPanel({ onReplay }: { onReplay: (entry: Ga4mpHistoryEntry) => void }) {
  const [page, setPage] = useState(1);
  const toast = useToast();
  const history = useQuery(ga4mpHistoryQuery(page));
  const remove = useDeleteHistoryEntry();
  const clear = useClearHistory();
  const data = history.data;
  const pages = data ? Math.ceil(data.total / data.pageSize) : 1;

  const deleteEntry = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => {
        toast('History entry deleted', 'success', TOAST);
        // The last entry of the last page: show the page before rather than an empty one.
        if (data && data.items.length === 1 && page > 1) setPage(page - 1);
      },
      onError: (error) => toast(error.message, 'error', TOAST),
    });

  const clearAll = () => {
    if (!window.confirm('Delete every payload in your history?')) return;
    clear.mutate(undefined, {
      onSuccess: () => {
        toast('History cleared', 'success', TOAST);
        setPage(1);
      },
      onError: (error) => toast(error.message, 'error', TOAST),
    });
  };

  return (
    <section className="ga4mp-section ga4mp-history card" aria-labelledby="ga4mp-history-title" aria-busy={history.isPending}>
      <div className="ga4mp-section__header">
        <h2 id="ga4mp-history-title">History</h2>
        {data && data.total > 0 ? (
          <button type="button" className="button button--small button--danger" disabled={clear.isPending} onClick={clearAll}>
            Clear history
          </button>
        ) : null}
      </div>
      {history.isPending ? (
        <ul className="ga4mp-history__list" aria-label="Loading history">
          {[0, 1, 2].map((row) => (
            <li key={row} className="ga4mp-history__item ga4mp-history__item--skeleton">
              <div className="skeleton ga4mp-history__skeleton ga4mp-history__skeleton--short" />
              <div className="skeleton ga4mp-history__skeleton" />
            </li>
          ))}
        </ul>
      ) : history.isError ? (
        <div className="alert alert--error" role="alert">
          <p>Could not load your history: {history.error.message}</p>
          <button type="button" className="button button--small" onClick={() => void history.refetch()}>
            Try again
          </button>
        </div>
      ) : history.data.total === 0 ? (
        <div className="empty-state">
          <h3>No payloads sent yet</h3>
          <p>Payloads you send to GA4 appear here (without their API secret), newest first; the latest {GA4MP_HISTORY_LIMIT} are kept.</p>
        </div>
      ) : (
        <>
          <p className="muted ga4mp-history__count">
            {plural(history.data.total, 'payload')} sent, newest first (the latest {GA4MP_HISTORY_LIMIT} are kept).
          </p>
          <ul className="ga4mp-history__list">
            {history.data.items.map((entry) => (
              <HistoryRow
                key={entry.id}
                entry={entry}
                onReplay={() => onReplay(entry)}
                onDelete={() => deleteEntry(entry.id)}
                deleting={remove.isPending && remove.variables === entry.id}
              />
            ))}
          </ul>
          {pages > 1 ? (
            <Pager
              label="History pages"
              page={page}
              pageCount={pages}
              onPage={setPage}
              previousLabel="Newer"
              nextLabel="Older"
              busy={history.isPlaceholderData}
            />
          ) : null}
        </>
      )}
    </section>
  );
}
