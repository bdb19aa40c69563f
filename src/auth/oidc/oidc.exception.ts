import type { OidcErrorCode } from '../../../lib/api/auth.js';
import { DomainException } from '../../common/domain.exception.js';

// The browser never sees these as JSON: the sign-in endpoints are navigations, so OidcService
// turns the code into `/login?oidc_error=<code>` and the page words it. The statuses only matter
// if one ever escapes to the global filter.
const STATUS: Record<OidcErrorCode, number> = {
  unavailable: 503,
  unverified_email: 403,
  disabled: 403,
  failed: 401,
  registration_closed: 403,
};

export class OidcException extends DomainException<OidcErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }
}
