import { PRODUCT } from '../../lib/product.js';
import './ErrorScreen.css';

interface Props {
  status: number;
  /** Shown for 404s (it names the path); 5xx never show internals. */
  message?: string;
}

export const errorTitle = (status: number) => (status === 404 ? 'Page Not Found' : 'Internal Server Error');

/** The 404 and 500 screens. Plain anchors, so it also renders outside the router. */
export function ErrorScreen({ status, message }: Props) {
  const notFound = status === 404;
  return (
    <main className="bare">
      <section className="card error-screen" aria-labelledby="error-title" data-status={status}>
        <p className="error-screen__code" aria-hidden="true">
          {status}
        </p>
        <h1 id="error-title">{errorTitle(status)}</h1>
        <p className="error-screen__message" data-testid="error-message">
          {notFound ? message : 'Something went wrong on our side. It has been logged; please try again in a moment.'}
        </p>
        <div className="error-screen__actions">
          <a className="button button--primary" href="/">
            Back to {PRODUCT.name}
          </a>
          {notFound ? (
            <a className="button" href="/dashboard/lounge">
              Go to your dashboard
            </a>
          ) : (
            <a className="button" href="">
              Try again
            </a>
          )}
        </div>
      </section>
    </main>
  );
}
