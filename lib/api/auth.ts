/**
 * Request and response shapes of `/api/auth`: the server's DTOs implement the requests and its
 * handlers return the responses; the client's `features/auth/api.ts` sends and reads the same types.
 */
import type { ColorMode } from '../client-constants.js';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The signed-in user: what `POST /api/auth/login`, `/refresh` and `GET /api/auth/me`
 * answer, what the page guards see and what the app's header shows.
 */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** The uploaded avatar (`/api/avatars/<id>`), or null: the header then shows the name's initial. */
  avatarUrl: string | null;
  /** The colour mode saved on the account; applied to the browser at sign-in (`colorModeAtSignIn`). */
  colorMode: ColorMode;
}

/** `GET /api/auth/csrf`: the value of the `x-csrf-token` header for unsafe requests. */
export interface CsrfTokenResponse {
  token: string;
}

/** A confirmation worded by the server (`POST /api/auth/forgot-password`, `/verify-email/resend`). */
export interface MessageResponse {
  message: string;
}

/** The password policy: 12 to 128 characters, no composition rules, not on the common-password list. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** One message per password problem; the server reports only the first that applies. */
export const PASSWORD_MESSAGES = {
  required: 'Enter a password',
  length: `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  common: 'This password is too common: choose one that is harder to guess (a few unrelated words work well)',
} as const;

/** `POST /api/auth/login` */
export interface LoginRequest {
  email: string;
  password: string;
}

/**
 * `POST /api/auth/register`. Answers 202 with a `RegisterResponse` whether or not the address already
 * has an account (the owner of an existing account is told by e-mail instead): the account is
 * created unconfirmed, and the link sent to the address finishes the sign-up.
 */
export interface RegisterRequest {
  name: string;
  email: string;
  password: string;
  newsletter?: boolean;
  /** Where to land once the address is confirmed in this browser (same-site paths only). */
  redirect?: string;
}

export interface RegisterResponse {
  /** The address, as the server normalised it. */
  email: string;
  message: string;
}

/** The one answer to a registration, for a new address and a taken one alike. */
export const registrationMessage = (email: string) =>
  `Check your inbox: we sent a link to ${email}. Follow it to confirm your address and finish creating your account.`;

/** The error codes the auth API answers with (`code` in the error body). */
export const AUTH_ERROR_CODES = {
  emailNotVerified: 'EMAIL_NOT_VERIFIED',
} as const;

/** `POST /api/auth/forgot-password` (answers 202 with a `MessageResponse`, whether or not the account exists). */
export interface ForgotPasswordRequest {
  email: string;
}

/** `POST /api/auth/reset-password` (answers 204). */
export interface ResetPasswordRequest {
  token: string;
  password: string;
}

/** `GET /api/auth/verify-email?token=`: the link in the verification e-mail. */
export interface VerifyEmailQuery {
  token: string;
}

/**
 * Where the verification link lands: the profile for someone signed in in this browser, the
 * sign-in screen otherwise (the profile would only send them there, without saying why). Both
 * pages read `?verified=1` (confirmed) or `?verified=0` (expired or already used).
 */
export const VERIFIED_PARAM = 'verified';

export function verifyEmailLanding(outcome: { signedIn: boolean; verified: boolean }): string {
  return `${outcome.signedIn ? '/dashboard/user/profile' : '/login'}?${VERIFIED_PARAM}=${outcome.verified ? 1 : 0}`;
}

/** The `?verified=` value of a landing page: true, false, or null when the page was not reached from a link. */
export function parseVerifiedParam(value: string | null): boolean | null {
  return value === '1' ? true : value === '0' ? false : null;
}

/** Sign-in methods besides e-mail and password (`GET /api/auth/providers`). */
export interface AuthProviders {
  /** An OpenID Connect provider, when OIDC_ISSUER is configured. */
  oidc: { name: string } | null;
}

/** `GET /api/auth/oidc/start?redirect=`: a browser navigation, not a fetch. */
export interface OidcStartQuery {
  /** Where to land after signing in; only same-site relative paths are honoured. */
  redirect?: string;
}

export const OIDC_START_PATH = '/api/auth/oidc/start';

/** Where "Continue with {provider}" leads: a plain link, so it works before the page hydrates. */
export function oidcStartHref(redirect: string | null): string {
  return redirect ? `${OIDC_START_PATH}?redirect=${encodeURIComponent(redirect)}` : OIDC_START_PATH;
}

/** Why a provider sign-in ended on `/login?oidc_error=<code>`; the server sets the code, the page words it. */
export const OIDC_ERROR_CODES = ['unavailable', 'unverified_email', 'failed', 'disabled', 'registration_closed'] as const;
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
    case 'registration_closed':
      return `Registration is closed, and no account here belongs to your ${provider} account yet. Existing accounts can still sign in.`;
  }
}
