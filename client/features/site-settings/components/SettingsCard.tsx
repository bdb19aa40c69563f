import { type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * One section of /admin/settings: its heading and purpose, then its form once the saved values are
 * here (skeleton while loading, an error with Retry when they could not be loaded).
 */
export function SettingsCard<T>({
  id,
  title,
  description,
  query,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  query: UseQueryResult<T>;
  children: (saved: T) => ReactNode;
}) {
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div role="status" aria-busy="true" aria-label={`Loading ${title.toLowerCase()}`} className="site-settings__loading">
        <div className="skeleton site-settings__skeleton" />
        <div className="skeleton site-settings__skeleton site-settings__skeleton--short" />
      </div>
    );
  } else if (query.isError) {
    body = (
      <div className="alert alert--error site-settings__load-error" role="alert">
        <span>Could not load the {title.toLowerCase()} settings.</span>
        <button type="button" className="button button--small" onClick={() => void query.refetch()}>
          Retry
        </button>
      </div>
    );
  } else {
    body = children(query.data);
  }
  return (
    <section className="card site-settings__card" aria-labelledby={`${id}-title`}>
      <div className="site-settings__head">
        <h2 id={`${id}-title`}>{title}</h2>
        <p className="muted">{description}</p>
      </div>
      {body}
    </section>
  );
}

/** Save (and Discard while there are edits), with the state of the last attempt in words. */
export function SectionActions({
  dirty,
  saving,
  onDiscard,
  saveLabel = 'Save',
}: {
  dirty: boolean;
  saving: boolean;
  onDiscard: () => void;
  saveLabel?: string;
}) {
  return (
    <div className="site-settings__actions">
      <span className="site-settings__state" aria-live="polite">
        {saving ? 'Saving…' : dirty ? 'Unsaved changes' : ''}
      </span>
      {dirty && !saving ? (
        <button type="button" className="button button--ghost" onClick={onDiscard}>
          Discard
        </button>
      ) : null}
      <button type="submit" className="button button--primary" disabled={saving || !dirty} aria-disabled={saving || !dirty}>
        {saving ? 'Saving…' : saveLabel}
      </button>
    </div>
  );
}
