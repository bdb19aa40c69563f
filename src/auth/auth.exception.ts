import { DomainException } from '../common/domain.exception.js';

export enum AuthErrorCode {
  EmailNotVerified = 'EMAIL_NOT_VERIFIED',
  InvalidCredentials = 'INVALID_CREDENTIALS',
  AccountDisabled = 'ACCOUNT_DISABLED',
  CsrfInvalid = 'CSRF_INVALID',
  CrossSiteRequest = 'CROSS_SITE_REQUEST',
  /** An admin closed registration in /admin/settings; existing accounts still sign in. */
  RegistrationClosed = 'REGISTRATION_CLOSED',
}

// 401 means "we do not know who you are" (sign in again); 403 means "we know, and the answer is no".
// A wrong password is therefore 401, and a disabled account, a missing CSRF token or a write from
// another site is 403.
const STATUS: Record<AuthErrorCode, number> = {
  [AuthErrorCode.EmailNotVerified]: 403,
  [AuthErrorCode.InvalidCredentials]: 401,
  [AuthErrorCode.AccountDisabled]: 403,
  [AuthErrorCode.CsrfInvalid]: 403,
  [AuthErrorCode.CrossSiteRequest]: 403,
  [AuthErrorCode.RegistrationClosed]: 403,
};

export class AuthException extends DomainException<AuthErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  // Wrong credentials name no field on purpose: saying which of the two was wrong would tell whether the account exists.
}
