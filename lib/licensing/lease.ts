/**
 * Offline verification of a lease (docs/licensing.md, "Leases"): a compact JWS signed with the
 * site's Ed25519 licensing key, trusted only for the licence, product, device and nonce it names.
 */
import { LEASE_TYP, type LeasePayload, type LicensingJwks } from '../api/licences.js';
import type { ProductSlug } from '../licences/key.js';
import { findKey, fromBase64Url, type SignatureVerifier, webCryptoVerifier } from './signature.js';

export interface LeaseExpectation {
  product: ProductSlug;
  /** The device's fingerprint (SHA-256 hex) that asked for the lease. */
  fingerprint: string;
  /** When known: a lease for another licence of the same person is not this one's. */
  licenceId?: string | null;
  /** Right after asking: the nonce just sent (a replayed answer carries an old one). */
  nonce?: string | null;
}

export type LeaseCheck = { ok: true; payload: LeasePayload; kid: string } | { ok: false; reason: string; kid?: string };

export interface VerifyOptions {
  /** Milliseconds since the epoch; the lease must not be past its grace at this time. */
  now?: number;
  verifier?: SignatureVerifier;
}

const decodeJson = (segment: string): unknown => JSON.parse(new TextDecoder().decode(fromBase64Url(segment)));
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The `kid` a lease names, without checking anything else (to know which key to fetch). */
export function leaseKid(lease: unknown): string | null {
  if (typeof lease !== 'string') return null;
  try {
    const header = decodeJson(lease.split('.')[0]);
    return isRecord(header) && typeof header.kid === 'string' ? header.kid : null;
  } catch {
    return null;
  }
}

/**
 * Verifies `lease` against `jwks` and `expect`. The reasons are sentences for logs and the
 * companions' licence screens; `unknown signing key` is the one a client answers by refreshing keys.
 */
export async function verifyLease(
  lease: unknown,
  jwks: LicensingJwks | null | undefined,
  expect: LeaseExpectation,
  { now = Date.now(), verifier = webCryptoVerifier }: VerifyOptions = {},
): Promise<LeaseCheck> {
  if (typeof lease !== 'string') return { ok: false, reason: 'no lease' };
  const parts = lease.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a compact JWS' };
  let header: unknown;
  let payload: unknown;
  let signature: Uint8Array;
  try {
    header = decodeJson(parts[0]);
    payload = decodeJson(parts[1]);
    signature = fromBase64Url(parts[2]);
  } catch {
    return { ok: false, reason: 'unreadable lease' };
  }
  if (!isRecord(header) || !isRecord(payload)) return { ok: false, reason: 'unreadable lease' };
  if (header.alg !== 'EdDSA' || header.typ !== LEASE_TYP) return { ok: false, reason: 'not a lease (alg or typ)' };
  const kid = String(header.kid);
  const jwk = findKey(jwks, header.kid);
  if (!jwk) return { ok: false, reason: `unknown signing key ${kid}`, kid };
  let signed = false;
  try {
    signed = await verifier(jwk.x, new TextEncoder().encode(`${parts[0]}.${parts[1]}`), signature);
  } catch {
    signed = false;
  }
  if (!signed) return { ok: false, reason: 'bad signature' };
  if (payload.sub !== 'lease') return { ok: false, reason: 'not a lease (sub)' };
  if (payload.prod !== expect.product) return { ok: false, reason: 'lease for another product' };
  if (payload.fp !== expect.fingerprint) return { ok: false, reason: 'lease for another device' };
  if (expect.licenceId && payload.lic !== expect.licenceId) return { ok: false, reason: 'lease for another licence' };
  if (expect.nonce !== undefined && payload.nonce !== expect.nonce) return { ok: false, reason: 'nonce mismatch (replayed answer)' };
  if (!Number.isInteger(payload.exp) || !Number.isInteger(payload.grace)) return { ok: false, reason: 'lease without exp or grace' };
  if ((payload.grace as number) * 1000 <= now) return { ok: false, reason: 'lease and its grace are over' };
  return { ok: true, payload: payload as unknown as LeasePayload, kid };
}
