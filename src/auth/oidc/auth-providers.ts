import type { AuthProviders } from '../../../lib/api/auth.js';
import type { AppConfig } from '../../config/app-config.js';

/** From configuration only: the sign-in screens never wait for (or fail with) the provider itself. */
export function authProvidersOf(config: AppConfig): AuthProviders {
  return { oidc: config.oidc ? { name: config.oidc.displayName } : null };
}
