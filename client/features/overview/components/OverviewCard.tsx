import { type ReactNode, useId } from 'react';
import type { AdminOverviewResponse } from '../../../../lib/api/overview.js';
import { AppLink } from '../../../components/AppLink.js';
import type { AdminOverviewQuery } from '../hooks/useAdminOverview.js';

interface OverviewCardProps<T> {
  /** `data-overview-card`: tests and styles find a card by it. */
  name: string;
  title: string;
  overview: AdminOverviewQuery;
  /** The card's figures; null when the server could not compute them (the error state). */
  pick: (overview: AdminOverviewResponse) => T | null;
  isEmpty?: (value: T) => boolean;
  empty?: ReactNode;
  link?: { to: string; label: string };
  /** Beside the title (e.g. an explanation disclosure). */
  info?: ReactNode;
  wide?: boolean;
  children: (value: T) => ReactNode;
}

type CardState = 'loading' | 'error' | 'empty' | 'ready';

/**
 * One figure of the overview with its four states: a skeleton while loading, an error with a retry
 * (the whole request failed, or the server could not compute this figure), an empty state, the figures.
 */
export function OverviewCard<T>({ name, title, overview, pick, isEmpty, empty, link, info, wide, children }: OverviewCardProps<T>) {
  const headingId = useId();
  const value = overview.data ? pick(overview.data) : null;
  const state: CardState = overview.isPending ? 'loading' : value === null ? 'error' : isEmpty?.(value) ? 'empty' : 'ready';

  return (
    <section
      className={`card overview-card${wide ? ' overview-card--wide' : ''}`}
      aria-labelledby={headingId}
      aria-busy={state === 'loading'}
      data-overview-card={name}
      data-overview-state={state}
    >
      <div className="overview-card__head">
        <h2 id={headingId} className="overview-card__title">
          {title}
        </h2>
        {info}
      </div>
      <div className="overview-card__body">
        {state === 'loading' ? (
          <div className="overview-card__skeleton" aria-label={`Loading ${title.toLowerCase()}`}>
            <div className="skeleton overview-card__skeleton-figure" />
            <div className="skeleton overview-card__skeleton-line" />
          </div>
        ) : state === 'error' ? (
          <div className="alert alert--error overview-card__error" role="alert">
            <p>
              {overview.isError
                ? `Could not load the figures. ${overview.error.message}`
                : `Could not compute ${title.toLowerCase()} just now.`}
            </p>
            <button type="button" className="button button--small" onClick={() => void overview.refetch()} disabled={overview.isFetching}>
              {overview.isFetching ? 'Retrying…' : 'Try again'}
            </button>
          </div>
        ) : state === 'empty' ? (
          <div className="overview-card__empty">{empty}</div>
        ) : (
          children(value as T)
        )}
      </div>
      {link ? (
        <AppLink to={link.to} className="overview-card__link">
          {link.label} <span aria-hidden="true">→</span>
        </AppLink>
      ) : null}
    </section>
  );
}

/** A card for a figure whose data source does not exist yet: says so plainly, never a made-up 0. */
export function UpcomingCard({
  name,
  title,
  children,
  link,
}: {
  name: string;
  title: string;
  children: ReactNode;
  link?: { to: string; label: string };
}) {
  const headingId = useId();
  return (
    <section className="card overview-card" aria-labelledby={headingId} data-overview-card={name} data-overview-state="empty">
      <div className="overview-card__head">
        <h2 id={headingId} className="overview-card__title">
          {title}
        </h2>
      </div>
      <div className="overview-card__body">
        <div className="overview-card__empty">{children}</div>
      </div>
      {link ? (
        <AppLink to={link.to} className="overview-card__link">
          {link.label} <span aria-hidden="true">→</span>
        </AppLink>
      ) : null}
    </section>
  );
}
