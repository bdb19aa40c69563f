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
 * The card of the 404 and 500 screens; its frame is the caller's (the bare screens' header, or the
 * dashboard shell for a signed-in user's unknown tool). Plain anchors, so it also renders outside
 * the router and works before (or without) hydration: "Try again" is a link to the same page, not a
 * script.
 *
 * The title is always `Page Not Found` (404) or `Internal Server Error`; the message is the binding
 * one of docs/routes.md (`Page not found: {path}` for an unmatched path, `Page Not Found: {path}`
 * for a path a route's validation refused), shown as the technical detail it is, below a sentence
 * that says what to do.
 */
export function ErrorScreen({ status, message, viewer, retryHref }: Props) {
  const notFound = status === 404;
  const home = (
    <a className={`button${viewer === 'signed-in' && notFound ? '' : ' button--primary'}`} href="/">
      Back to {PRODUCT.name}
    </a>
  );
  return (
    <section className="card error-screen" aria-labelledby="error-title" data-status={status}>
      <p className="error-screen__code" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-title">{errorTitle(status)}</h1>
      {notFound ? (
        <>
          <p className="error-screen__hint">There is nothing at this address. Check it for typos, or go on from here.</p>
          <p className="error-screen__message error-screen__message--detail" data-testid="error-message">
            {message}
          </p>
        </>
      ) : (
        <p className="error-screen__message" data-testid="error-message">
          Something went wrong on our side. It has been logged; please try again in a moment.
        </p>
      )}
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
  );
}
