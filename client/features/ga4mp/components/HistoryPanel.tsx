import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Ga4mpHistoryEntry, Ga4mpHistoryPage } from '../../../../lib/tools/ga4mp/api-types.js';
import { api } from '../../../app/api-client.js';
import { useToast } from '../../../components/Toaster.js';
import '../ga4mp.css';

export const HISTORY_KEY = ['ga4mp', 'history'] as const;
const PAGE_SIZE = 10;

function when(iso: string): string {
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

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
  return (
    <li className="ga4mp-history__item">
      <div className="ga4mp-history__main">
        <div className="ga4mp-history__title">
          <span className={`badge ${entry.debug ? 'badge--accent' : ''}`}>{entry.debug ? 'debug' : 'real'}</span>
          <span className="badge">{entry.region === 'eu' ? 'EU' : 'global'}</span>
          <code>{streamId}</code>
          <span className={`badge ${entry.ok ? 'ga4mp-badge--ok' : 'ga4mp-badge--error'}`}>
            {entry.status ?? (entry.error ? 'failed' : '—')}
          </span>
        </div>
        <p className="ga4mp-history__events">{entry.eventNames.length ? entry.eventNames.join(', ') : 'no events'}</p>
        <p className="muted ga4mp-history__meta">
          <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time> · {entry.durationMs} ms
          {entry.localMessages.length
            ? ` · sent with ${entry.localMessages.length} validation message${entry.localMessages.length === 1 ? '' : 's'}`
            : ''}
          {entry.error ? ` · ${entry.error}` : ''}
        </p>
      </div>
      <div className="ga4mp-history__actions">
        <button
          type="button"
          className="button button--small"
          onClick={onReplay}
          aria-label={`Replay ${entry.eventNames.join(', ') || 'payload'} from ${when(entry.createdAt)}`}
        >
          Replay
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={onDelete}
          disabled={deleting}
          aria-label={`Delete ${entry.eventNames.join(', ') || 'payload'} from ${when(entry.createdAt)}`}
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
  const queryClient = useQueryClient();
  const history = useQuery({
    queryKey: [...HISTORY_KEY, page],
    queryFn: () => api<Ga4mpHistoryPage>(`/api/tools/ga4mp/history?page=${page}&pageSize=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
  const remove = useMutation({
    mutationFn: (id: string) => api<void>(`/api/tools/ga4mp/history/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast('History entry deleted', 'success');
      void refresh();
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const clear = useMutation({
    mutationFn: () => api<void>('/api/tools/ga4mp/history', { method: 'DELETE' }),
    onSuccess: () => {
      toast('History cleared', 'success');
      setPage(1);
      void refresh();
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const data = history.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="ga4mp-section ga4mp-history card" aria-labelledby="ga4mp-history-title" aria-busy={history.isPending}>
      <div className="ga4mp-section__header">
        <h2 id="ga4mp-history-title">History</h2>
        {data && data.total > 0 ? (
          <button
            type="button"
            className="button button--small button--danger"
            disabled={clear.isPending}
            onClick={() => {
              if (window.confirm('Delete every payload in your history?')) clear.mutate();
            }}
          >
            Clear history
          </button>
        ) : null}
      </div>
      {history.isPending ? (
        <ul className="ga4mp-history__list" aria-label="Loading history">
          {[0, 1, 2].map((row) => (
            <li key={row} className="ga4mp-history__item ga4mp-history__item--skeleton">
              <div className="skeleton" style={{ width: '40%' }} />
              <div className="skeleton" style={{ width: '70%' }} />
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
      ) : data && data.items.length === 0 ? (
        <div className="empty-state">
          <h3>No payloads sent yet</h3>
          <p>Payloads you send to GA4 appear here (without their API secret), newest first; the latest 50 are kept.</p>
        </div>
      ) : data ? (
        <>
          <ul className="ga4mp-history__list">
            {data.items.map((entry) => (
              <HistoryRow
                key={entry.id}
                entry={entry}
                onReplay={() => onReplay(entry)}
                onDelete={() => remove.mutate(entry.id)}
                deleting={remove.isPending && remove.variables === entry.id}
              />
            ))}
          </ul>
          {pages > 1 ? (
            <nav className="ga4mp-pager" aria-label="History pages">
              <button type="button" className="button button--small" disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
                Newer
              </button>
              <span className="muted">
                Page {data.page} of {pages}
              </span>
              <button
                type="button"
                className="button button--small"
                disabled={page >= pages}
                onClick={() => setPage((current) => current + 1)}
              >
                Older
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
