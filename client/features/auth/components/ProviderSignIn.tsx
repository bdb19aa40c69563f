import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { oidcErrorMessage, oidcStartHref, parseOidcError } from '../../../../lib/api/auth.js';
import { useDataSource } from '../../../app/data-source.js';
import { authProvidersQuery } from '../../../app/queries.js';
import '../auth.css';

/**
 * "Continue with {provider}" above the e-mail form, when a provider is configured, and the reason a
 * provider sign-in came back here (`?oidc_error=`). A plain link: the sign-in is a chain of
 * server redirects, and it works before the page has hydrated.
 */
export function ProviderSignIn({ redirect }: { redirect: string | null }) {
  const [params] = useSearchParams();
  const { data: providers } = useQuery(authProvidersQuery(useDataSource()));
  const error = parseOidcError(params.get('oidc_error'));
  const name = providers?.oidc?.name ?? null;
  if (!error && !name) return null;
  return (
    <div className="auth-providers">
      {error ? (
        <div className="alert alert--error" role="alert">
          {oidcErrorMessage(error, name ?? 'The sign-in provider')}
        </div>
      ) : null}
      {name ? (
        <>
          <a className="button button--block" href={oidcStartHref(redirect)} data-provider="oidc">
            {`Continue with ${name}`}
          </a>
          <p className="auth-providers__divider">or use your e-mail</p>
        </>
      ) : null}
    </div>
  );
}
