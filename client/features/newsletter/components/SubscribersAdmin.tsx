import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  type AdminSubscriberQuery,
  SOURCE_LABELS,
  STATE_LABELS,
  SUBSCRIBER_STATES,
  type SubscriberState,
} from '../../../../lib/api/newsletter.js';
import { Field } from '../../../components/FormField.js';
import { Pager } from '../../../components/Pager.js';
import { csvHref, subscribersQuery } from '../api.js';
import { formatDate } from '../../../../lib/format/date.js';
import '../newsletter.css';

const PAGE_SIZE = 25;
const SEARCH_DEBOUNCE_MS = 300;
const SKELETON_ROWS = 4;
const COLUMNS = 5;

const dateOrDash = (iso: string | null) => (iso ? formatDate(iso) : '—');

/** /admin/newsletter: counts per state, search, filter, the list (cards on phones) and the CSV export. */
export function SubscribersAdmin() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState<AdminSubscriberQuery>({ page: 1, pageSize: PAGE_SIZE });
  useEffect(() => {
    const timer = window.setTimeout(() => {
      const q = text.trim() || undefined;
      setQuery((current) => (current.q === q ? current : { ...current, q, page: 1 }));
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  const list = useQuery(subscribersQuery(query));
  const { data, isPending, isError, isFetching, isPlaceholderData, refetch } = list;
  const filtered = Boolean(query.q || query.state);
  const setState = (state: SubscriberState | undefined) => setQuery((current) => ({ ...current, state, page: 1 }));

  return (
    <section className="card subscribers" aria-labelledby="subscribers-title">
      <div className="subscribers__head">
        <h2 id="subscribers-title">Subscribers</h2>
        <a className="button button--small" href={csvHref(query)} download>
          Download CSV
        </a>
      </div>

      <ul className="subscribers__counts" aria-label="Subscribers per state">
        {SUBSCRIBER_STATES.map((state) => (
          <li key={state}>
            <button
              type="button"
              className="subscribers__count"
              aria-pressed={query.state === state}
              onClick={() => setState(query.state === state ? undefined : state)}
            >
              <span className="subscribers__count-value">{data ? data.counts[state] : '–'}</span>
              <span className="subscribers__count-label">{STATE_LABELS[state]}</span>
            </button>
          </li>
        ))}
      </ul>

      <div className="subscribers__toolbar">
        <Field label="Search e-mail" className="subscribers__search">
          {(control) => (
            <input {...control} className="input" type="search" value={text} onChange={(event) => setText(event.target.value)} />
          )}
        </Field>
        <Field label="State">
          {(control) => (
            <select
              {...control}
              className="input"
              value={query.state ?? ''}
              onChange={(event) => setState((event.target.value || undefined) as SubscriberState | undefined)}
            >
              <option value="">All states</option>
              {SUBSCRIBER_STATES.map((state) => (
                <option key={state} value={state}>
                  {STATE_LABELS[state]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>

      {isError && !data ? (
        <div className="alert alert--error subscribers__error" role="alert">
          <span>Could not load the subscribers. {list.error instanceof Error ? list.error.message : ''}</span>
          <button type="button" className="button button--small" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : data?.items.length === 0 ? (
        <div className="empty-state subscribers__empty">
          <h3>{filtered ? 'No subscriber matches' : 'No subscribers yet'}</h3>
          <p className="muted">
            {filtered
              ? 'Try another search or state.'
              : 'Sign-ups from the home page, registration and profiles appear here, pending until they confirm.'}
          </p>
          {filtered ? (
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                setText('');
                setQuery({ page: 1, pageSize: PAGE_SIZE });
              }}
            >
              Clear filters
            </button>
          ) : null}
        </div>
      ) : (
        <div className="subscribers__table-wrap">
          <table className="table table--stack subscribers__table" aria-busy={isPending || (isFetching && isPlaceholderData) || undefined}>
            <caption className="visually-hidden">Newsletter subscribers, newest first</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">State</th>
                <th scope="col">Source</th>
                <th scope="col">Signed up</th>
                <th scope="col">Confirmed</th>
              </tr>
            </thead>
            <tbody>
              {isPending
                ? Array.from({ length: SKELETON_ROWS }, (_, row) => (
                    <tr key={row} aria-hidden="true">
                      {Array.from({ length: COLUMNS }, (_, cell) => (
                        <td key={cell}>
                          <div className="skeleton subscribers__skeleton" />
                        </td>
                      ))}
                    </tr>
                  ))
                : data.items.map((subscriber) => (
                    <tr key={subscriber.email}>
                      <td data-label="E-mail" className="subscribers__email">
                        {subscriber.email}
                      </td>
                      <td data-label="State">
                        <span className={subscriber.state === 'confirmed' ? 'badge badge--accent' : 'badge'}>
                          {STATE_LABELS[subscriber.state]}
                        </span>
                        {subscriber.suppressed ? <span className="muted subscribers__suppressed"> suppressed</span> : null}
                      </td>
                      <td data-label="Source">{SOURCE_LABELS[subscriber.source]}</td>
                      <td data-label="Signed up">
                        <time dateTime={subscriber.subscribedAt}>{dateOrDash(subscriber.subscribedAt)}</time>
                      </td>
                      <td data-label="Confirmed">{dateOrDash(subscriber.confirmedAt)}</td>
                    </tr>
                  ))}
            </tbody>
          </table>
        </div>
      )}
      {isError && data ? (
        <div className="alert alert--error" role="alert">
          Could not refresh the list.
        </div>
      ) : null}
      {data && data.total > data.pageSize ? (
        <Pager
          label="Subscriber pages"
          page={data.page}
          pageCount={Math.ceil(data.total / data.pageSize)}
          busy={isFetching}
          onPage={(page) => setQuery((current) => ({ ...current, page }))}
        />
      ) : null}
    </section>
  );
}
