import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { AppLink } from '../../components/AppLink.js';
import { api } from '../../app/api-client.js';
import { useDataSource } from '../../app/data-source.js';
import { meQuery } from '../../app/queries.js';
import '../../features/auth/auth.css';

type State = 'pending' | 'done' | 'failed';

/** Ends the session on the server (a POST with the CSRF token), then confirms. */
export default function LogoutPage() {
  const queryClient = useQueryClient();
  const data = useDataSource();
  const [state, setState] = useState<State>('pending');

  useEffect(() => {
    let active = true;
    api('/api/auth/logout', { method: 'POST' })
      .then(() => {
        queryClient.setQueryData(meQuery(data).queryKey, null);
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
        if (active) setState('done');
      })
      .catch(() => active && setState('failed'));
    return () => {
      active = false;
    };
  }, [queryClient, data]);

  return (
    <section className="card auth-card" aria-labelledby="logout-title" aria-busy={state === 'pending'}>
      {state === 'pending' ? (
        <>
          <h1 id="logout-title">Signing out…</h1>
          <div className="skeleton" style={{ height: '1rem', width: '60%' }} />
        </>
      ) : state === 'done' ? (
        <>
          <h1 id="logout-title">Signed out</h1>
          <p className="muted">Your session has ended on this device.</p>
          <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
            <AppLink to="/" className="button button--primary">
              Back to home
            </AppLink>
            <AppLink to="/login" className="button">
              Sign in again
            </AppLink>
          </div>
        </>
      ) : (
        <>
          <h1 id="logout-title">Could not sign out</h1>
          <p className="muted">The server did not answer. Check your connection and try again.</p>
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            Try again
          </button>
        </>
      )}
    </section>
  );
}
