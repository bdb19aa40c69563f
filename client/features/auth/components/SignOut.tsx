import { useEffect, useState } from 'react';
import { AppLink } from '../../../components/AppLink.js';
import { useMe } from '../../../app/data-source.js';
import { useLogout } from '../api.js';
import '../auth.css';

/**
 * `/logout`: ends the session on the server (a POST with the CSRF token), then says what happened.
 * The request is sent even without a session, to clear whatever stale cookie is left; the wording
 * depends on whether there was a session to end.
 */
export function SignOut() {
  const me = useMe();
  // Read once: the sign-out itself clears the user.
  const [hadSession] = useState(me !== null);
  const logout = useLogout();
  const { mutate } = logout;
  useEffect(() => mutate(), [mutate]);

  if (logout.isError) {
    return (
      <section className="card auth-card" aria-labelledby="logout-title">
        <h1 id="logout-title">Could not sign out</h1>
        <p className="muted">The server did not answer. Check your connection and try again.</p>
        <button type="button" className="button button--primary" onClick={() => mutate()}>
          Try again
        </button>
      </section>
    );
  }
  if (!logout.isSuccess) {
    return (
      <section className="card auth-card" aria-labelledby="logout-title" aria-busy="true">
        <h1 id="logout-title">Signing out…</h1>
        <div className="skeleton auth-card__skeleton" />
      </section>
    );
  }
  return (
    <section className="card auth-card" aria-labelledby="logout-title">
      {hadSession ? (
        <>
          <h1 id="logout-title">Signed out</h1>
          <p className="muted">Your session has ended on this device.</p>
        </>
      ) : (
        <>
          <h1 id="logout-title">You were not signed in</h1>
          <p className="muted">There was no session to end on this device.</p>
        </>
      )}
      <div className="auth-card__actions">
        <AppLink to="/" className="button button--primary">
          Back to home
        </AppLink>
        <AppLink to="/login" className="button">
          {hadSession ? 'Sign in again' : 'Sign in'}
        </AppLink>
      </div>
    </section>
  );
}
