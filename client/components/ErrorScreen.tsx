import { PRODUCT } from '../../lib/product.js';
import './ErrorScreen.css';

/** Who is looking, when it is known: the way out of a 404 depends on it. */
export type ErrorScreenViewer = 'signed-in' | 'visitor';

interface Props {
  status: number;
  /** Shown for 404s (it names the path); 5xx never show internals. */
  message?: string;
  /** Unknown (the screen is drawn before the session is known): only the way home is offered. */
  viewer?: ErrorScreenViewer;
  /** The page that failed, offered as "Try again" on a 5xx. */
  retryHref?: string;
}

export const errorTitle = (status: number) => (status === 404 ? 'Page Not Found' : 'Internal Server Error');

/**
 * The 404 and 500 screens. Plain anchors, so it also renders outside the router and works before
 * (or without) hydration: "Try again" is a link to the same page, not a script.
 */
export function ErrorScreen({ status, message, viewer, retryHref }: Props) {
  const notFound = status === 404;
  const home = (
    <a className={`button${viewer === 'signed-in' && notFound ? '' : ' button--primary'}`} href="/">
      Back to {PRODUCT.name}
    </a>
  );
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
          {notFound && viewer === 'signed-in' ? (
            <>
              <a className="button button--primary" href="/dashboard/lounge">
                Go to your dashboard
              </a>
              {home}
            </>
          ) : notFound ? (
            <>
              {home}
              {viewer === 'visitor' ? (
                <a className="button" href="/login">
                  Sign in
                </a>
              ) : null}
            </>
          ) : (
            <>
              {home}
              {retryHref ? (
                <a className="button" href={retryHref}>
                  Try again
                </a>
              ) : null}
            </>
          )}
        </div>
      </section>
    </main>
  );
}
