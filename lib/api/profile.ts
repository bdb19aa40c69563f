/**
 * Request and response shapes of `/api/profile`: the server's DTOs implement the requests and
 * `toProfileResponse` returns the response; the client's `features/profile/api.ts` uses the same types.
 */
import type { ColorMode } from '../client-constants.js';
import type { Role } from './auth.js';
import type { SubscriberState } from './newsletter.js';

/** `GET /api/profile`, and the answer of every request that changes the profile. */
export interface ProfileResponse {
  id: string;
  name: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  /** False for accounts that sign in only through an OpenID Connect provider. */
  hasPassword: boolean;
  /** A new address waiting for its confirmation link to be followed. */
  pendingEmail: string | null;
  colorMode: ColorMode;
  newsletterOptIn: boolean;
  /** The address on the newsletter list: `pending` waits for the mailed link; null when never subscribed. */
  newsletterState: SubscriberState | null;
  avatarUrl: string | null;
  /** ISO 8601. */
  createdAt: string;
}

/** `PATCH /api/profile`: only the fields present change. */
export interface UpdateProfileRequest {
  name?: string;
  colorMode?: ColorMode;
  newsletterOptIn?: boolean;
}

/** `POST /api/profile/email`: the address changes once the link sent to it is followed. */
export interface ChangeEmailRequest {
  email: string;
  currentPassword: string;
}

/** `POST /api/profile/password` */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
  signOutOtherSessions?: boolean;
}

export interface ChangePasswordResponse {
  /** How many other sessions were ended (0 unless `signOutOtherSessions`). */
  signedOutSessions: number;
}

/** The word `DELETE /api/profile` must be sent as `confirm`. */
export const DELETE_ACCOUNT_CONFIRMATION = 'DELETE';

/** `DELETE /api/profile` (answers 204). `currentPassword` is required unless the account has none. */
export interface DeleteAccountRequest {
  currentPassword?: string;
  confirm: string;
}

/** `PUT /api/profile/avatar`: multipart/form-data with the image in this field; answers a `ProfileResponse`. */
export const AVATAR_FIELD = 'avatar';
export const AVATAR_MAX_BYTES = 1024 * 1024;
/** Checked from the file's bytes on the server; the browser's file picker offers these. */
export const AVATAR_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** `GET /api/avatars/:id`: a stored avatar, public and immutable (a new upload gets a new id). */
export function avatarUrl(avatarId: string | null | undefined): string | null {
  return avatarId ? `/api/avatars/${avatarId}` : null;
}
