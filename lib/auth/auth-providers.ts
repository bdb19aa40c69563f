/** Sign-in methods besides e-mail and password (`GET /api/auth/providers`). */
export interface AuthProviders {
  /** An OpenID Connect provider, when OIDC_ISSUER is configured. */
  oidc: { name: string } | null;
}

export const OIDC_START_PATH = '/api/auth/oidc/start';

/** Where "Continue with {provider}" leads: a plain link, so it works before the page hydrates. */
export function oidcStartHref(redirect: string | null): string {
  return redirect ? `${OIDC_START_PATH}?redirect=${encodeURIComponent(redirect)}` : OIDC_START_PATH;
}

/** Why a provider sign-in ended on `/login?oidc_error=<code>`; the server sets the code, the page words it. */
export const OIDC_ERROR_CODES = ['unavailable', 'unverified_email', 'failed', 'disabled'] as const;
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number];

export function parseOidcError(value: string | null): OidcErrorCode | null {
  return OIDC_ERROR_CODES.includes(value as OidcErrorCode) ? (value as OidcErrorCode) : null;
}

export function oidcErrorMessage(code: OidcErrorCode, provider: string): string {
  switch (code) {
    case 'unavailable':
      return `${provider} cannot be reached right now. Try again in a moment, or sign in with your e-mail and password.`;
    case 'unverified_email':
      return `${provider} has not confirmed your e-mail address, so we cannot tell which account is yours. Confirm it with ${provider} first, or use your e-mail and password.`;
    case 'disabled':
      return 'This account has been disabled.';
    case 'failed':
      return `Signing in with ${provider} did not work. Try again.`;
  }
}
