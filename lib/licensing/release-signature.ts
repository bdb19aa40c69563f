/**
 * A release build's signature (docs/releases.md): Ed25519 over the 32 raw bytes of the file's
 * SHA-256 digest, made with the site's licensing key. An updater checks both the digest of what it
 * downloaded and this signature before it offers the build, and never installs one that fails.
 */
import type { LicensingJwks } from '../api/licences.js';
import type { ReleaseSignature } from '../api/releases.js';
import { findKey, fromBase64Url, hexToBytes, sha256Hex, type SignatureVerifier, webCryptoVerifier } from './signature.js';

export type ReleaseCheck = { ok: true } | { ok: false; reason: string; unknownKid?: string };

/** Checks that `signature` signs the digest `sha256` (lower-case hex) with a published key. */
export async function verifyReleaseSignature(
  sha256: string,
  signature: ReleaseSignature | null | undefined,
  jwks: LicensingJwks | null | undefined,
  verifier: SignatureVerifier = webCryptoVerifier,
): Promise<ReleaseCheck> {
  if (!signature || signature.alg !== 'EdDSA' || typeof signature.value !== 'string') return { ok: false, reason: 'unsigned build' };
  if (!/^[0-9a-f]{64}$/.test(sha256)) return { ok: false, reason: 'not a SHA-256 digest' };
  const jwk = findKey(jwks, signature.kid);
  if (!jwk) return { ok: false, reason: `unknown signing key ${signature.kid}`, unknownKid: signature.kid };
  try {
    if (await verifier(jwk.x, hexToBytes(sha256), fromBase64Url(signature.value))) return { ok: true };
  } catch {
    // an unreadable signature is a bad one
  }
  return { ok: false, reason: 'bad signature' };
}

/** Checks downloaded bytes: their digest must be the one announced, and that digest signed. */
export async function verifyDownloadedBuild(
  bytes: Uint8Array,
  expected: { sha256: string; size?: number; signature: ReleaseSignature | null | undefined },
  jwks: LicensingJwks | null | undefined,
  verifier?: SignatureVerifier,
): Promise<ReleaseCheck> {
  if (expected.size !== undefined && bytes.byteLength !== expected.size) {
    return { ok: false, reason: `size ${bytes.byteLength} instead of ${expected.size}` };
  }
  const digest = await sha256Hex(bytes);
  if (digest !== expected.sha256) return { ok: false, reason: 'checksum mismatch' };
  return verifyReleaseSignature(digest, expected.signature, jwks, verifier);
}
