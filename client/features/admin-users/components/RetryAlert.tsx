import '../admin-users.css';

/** A failed load, said where the data would be, with a way to try again (none for a 404). */
export function RetryAlert({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="alert alert--error admin-users__error" role="alert">
      <span>{message}</span>
      {onRetry ? (
        <button type="button" className="button button--small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
