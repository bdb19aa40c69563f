import type { ProductSlug } from '../licences/key.js';

/**
 * The licensing API of the apps and the extension (`POST /api/v1/licenses/activate|validate|deactivate`)
 * and the dashboard's licence API (`/api/licences`, `/api/admin/...`).
 *
 * The apps' API answers 200 with one shape for every decision (`valid` + `code`); a 4xx means the
 * request itself was malformed (400) or the client is over its limit (429, which a client treats
 * like being offline: the lease's grace applies).
 */

/** Why a licence is (not) valid for this device. */
export type LicenceCode =
  | 'VALID'
  /** No licence has this key (a bad check character answers this too, without a database read). */
  | 'NOT_FOUND'
  /** The key is for the other product. */
  | 'WRONG_PRODUCT'
  /** The paid period (and any grace) is over. */
  | 'EXPIRED'
  /** Paused subscription or open payment dispute. */
  | 'SUSPENDED'
  /** Refunded, lost dispute, or revoked by an administrator. */
  | 'REVOKED'
  /** Every seat is held by another device seen in the last 30 days. */
  | 'NO_SEATS_LEFT'
  /** This device holds no seat (never activated, deactivated, or released after 30 days unseen). */
  | 'NOT_ACTIVATED'
  /** Deactivation refused: the month's budget of deactivations for this licence is used up. */
  | 'DEACTIVATION_LIMIT'
  /** Deactivation done: this device no longer holds a seat. */
  | 'DEACTIVATED';

/** Billing's state, except that a licence whose end date passed reads `expired` and one an administrator revoked `revoked`. */
export type LicenceStatus = 'active' | 'past_due' | 'suspended' | 'revoked' | 'expired';

export interface LicenceSummary {
  id: string;
  product: ProductSlug;
  planId: string;
  status: LicenceStatus;
  seats: number;
  seatsUsed: number;
  /** ISO 8601; null for a lifetime licence. */
  expiresAt: string | null;
  graceUntil: string | null;
}

export interface ActivationSummary {
  /** The device's fingerprint (SHA-256 hex, computed by the client). */
  id: string;
  name: string;
  platform: string;
  appVersion: string;
  activatedAt: string;
  lastSeenAt: string;
}

/** Body of activate, validate and deactivate. */
export interface LicenceApiRequest {
  key: string;
  product: ProductSlug;
  /** SHA-256 (64 lowercase hex) of the OS machine id (apps) or of a random install id (extension). */
  fingerprint: string;
  /** Echoed inside the signed lease, so a recorded answer cannot be replayed. */
  nonce?: string;
  /** Activate only: shown in the dashboard's device list. */
  name?: string;
  platform?: string;
  appVersion?: string;
}

export interface LicenceApiResponse {
  valid: boolean;
  code: LicenceCode;
  /** A sentence for people. */
  detail: string;
  /** Server time, ISO 8601. */
  ts: string;
  nonce: string | null;
  /** Null when no licence has the key. */
  licence: LicenceSummary | null;
  activation: ActivationSummary | null;
  /** A compact JWS (`typ: hitscope-lease+jwt`) when `valid`; verify it against the published keys. */
  lease: string | null;
}

/** The payload of a lease. Times are seconds since the epoch. */
export interface LeasePayload {
  sub: 'lease';
  lic: string;
  prod: ProductSlug;
  plan: string;
  fp: string;
  seats: number;
  nonce: string | null;
  iat: number;
  /** Validate again before this (at most 7 days after iat). */
  exp: number;
  /** Offline: the app keeps working until this (exp + 30 days apps, + 7 days extension). */
  grace: number;
}

export const LEASE_TYP = 'hitscope-lease+jwt';
export const LICENSING_KEYS_PATH = '/.well-known/hitscope-licensing-keys.json';

export interface LicensingJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface LicensingJwks {
  keys: LicensingJwk[];
}

/** A lease signing key as administrators see it (`GET /api/admin/licensing/signing-keys`): never private material. */
export interface AdminSigningKey {
  /** RFC 7638 thumbprint, the `kid` of the leases and builds it signs. */
  kid: string;
  /** The key signing leases and builds now. */
  current: boolean;
  createdAt: string;
  /** Null for the current key. */
  retiredAt: string | null;
  /** Until when the JWKS publishes a retired key (past: no longer published); null for the current key. */
  publishedUntil: string | null;
  /** In the JWKS now. */
  published: boolean;
}

export interface AdminSigningKeyList {
  /** The current key first, then retired keys, newest first. */
  keys: AdminSigningKey[];
}

/** `POST /api/admin/licensing/signing-keys/rotate`. */
export interface RotateSigningKeyResponse extends AdminSigningKeyList {
  retired: string;
  current: string;
}

export const SIGNING_KEY_AUDIT_ACTIONS = { rotate: 'licensing.signing-key.rotate' } as const;

/* Dashboard ------------------------------------------------------------------------------------ */

export interface DeviceActivation extends ActivationSummary {
  /** Released after 30 days unseen: no longer holds a seat, listed so the person knows why. */
  released: boolean;
}

export interface OwnedLicence extends LicenceSummary {
  /** The key, decrypted for its owner only; null if it cannot be decrypted (the server's AUTH_SECRET changed). */
  key: string | null;
  keyHint: string;
  productName: string;
  source: 'subscription' | 'order' | 'grant';
  /** The subscription (`sub_…`), order (`ord_…`) or grant (`gr_…`) that gave it: pages show a licence beside its purchase. */
  sourceId: string;
  valid: boolean;
  activations: DeviceActivation[];
  deactivationsLeftThisMonth: number;
}

/** `GET /api/licences`. */
export interface OwnedLicenceList {
  licences: OwnedLicence[];
}

/** `POST /api/admin/users/:userId/licences`. */
export interface GrantLicenceRequest {
  planId: string;
  products: ProductSlug[];
  seats: number;
  /** ISO 8601; absent or null: no expiry. */
  expiresAt?: string | null;
  note?: string;
}

/** An administrator's view of a licence (no key: only its last characters). */
export type AdminLicence = Omit<OwnedLicence, 'key'> & { userId: string };

export interface AdminLicenceList {
  licences: AdminLicence[];
}
