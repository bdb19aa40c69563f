/**
 * Ed25519 signature checks for the companions (leases and release builds), with WebCrypto only:
 * the same code runs in Node 20, a browser extension's service worker and a desktop webview.
 */
import type { LicensingJwk, LicensingJwks } from '../api/licences.js';

/**
 * Checks an Ed25519 signature made by the key whose public half is `x` (base64url, 32 bytes).
 * Injectable because a webview without WebCrypto Ed25519 can hand the check to native code.
 */
export type SignatureVerifier = (x: string, data: Uint8Array, signature: Uint8Array) => Promise<boolean>;

export const webCryptoVerifier: SignatureVerifier = async (x, data, signature) => {
  const key = await globalThis.crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x }, { name: 'Ed25519' }, false, ['verify']);
  return globalThis.crypto.subtle.verify({ name: 'Ed25519' }, key, signature as BufferSource, data as BufferSource);
};

/** Decodes base64url (padding optional); throws on anything else. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new Error('not base64url');
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The published Ed25519 key with this `kid`, or null. */
export function findKey(jwks: LicensingJwks | null | undefined, kid: unknown): LicensingJwk | null {
  if (typeof kid !== 'string' || !Array.isArray(jwks?.keys)) return null;
  return jwks.keys.find((key) => key.kid === kid && key.kty === 'OKP' && key.crv === 'Ed25519' && typeof key.x === 'string') ?? null;
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error('not hex');
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
