import { useQuery } from '@tanstack/react-query';
import { userAuditQuery } from '../api.js';
import { describeAuditEntry, formatDateTime, plural } from '../format.js';
import { RetryAlert } from './RetryAlert.js';
import '../admin-users.css';

/** The latest admin actions on one account, newest first, naming the admin who took them. */
export function AuditList({ userId, meEmail }: { userId: string; meEmail?: string }) {
  const audit = useQuery(userAuditQuery(userId));
  if (audit.isPending) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading recent activity" className="admin-users__audit-loading">
        <div className="skeleton admin-users__skeleton-line" />
        <div className="skeleton admin-users__skeleton-line admin-users__skeleton-line--short" />
      </div>
    );
  }
  if (audit.isError) return <RetryAlert message="Could not load recent activity." onRetry={() => void audit.refetch()} />;
  const { items, total } = audit.data;
  if (items.length === 0) return <p className="muted admin-users__none">No admin actions on this account yet.</p>;
  return (
    <ol className="admin-users__audit">
      {items.map((entry) => (
        <li key={entry.id} className="admin-users__audit-entry">
          <span className="admin-users__audit-what">{describeAuditEntry(entry)}</span>
          <span className="muted admin-users__audit-meta">
            by {entry.actor.email === meEmail ? 'you' : entry.actor.email} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
          </span>
        </li>
      ))}
      {total > items.length ? (
        <li className="muted admin-users__audit-more">and {plural(total - items.length, 'earlier action')}</li>
      ) : null}
    </ol>
  );
}
