/**
 * One call of the licensing API (`POST /api/v1/licenses/activate|validate|deactivate`) and what a
 * client must make of its answer (docs/licensing.md, "Client rules"):
 * - a 200 answer is a decision, trusted only through the signed lease, verified offline against the
 *   site's published keys for this licence, product, device and the nonce just sent;
 * - 408, 429, 5xx, a network error or a 2xx that is not JSON mean "could not ask": the client keeps
 *   working on its last lease until the lease's `grace`;
 * - every other 4xx means "denied" (fail closed).
 */
import type { LeasePayload, LicenceApiResponse, LicenceCode, LicensingJwks } from '../api/licences.js';
import { LICENSING_KEYS_PATH } from '../api/licences.js';
import type { ProductSlug } from '../licences/key.js';
import { verifyLease } from './lease.js';
import type { SignatureVerifier } from './signature.js';

export type LicenceOperation = 'activate' | 'validate' | 'deactivate';
export type AnswerKind = 'decision' | 'offline' | 'denied';
type Fetch = typeof globalThis.fetch;

const OFFLINE_STATUSES = new Set([408, 429]);
export const DEFAULT_TIMEOUT_MS = 10_000;

/** How a client must read an HTTP outcome. */
export function classify(status: number, isJson: boolean): AnswerKind {
  if (status >= 200 && status < 300) return isJson ? 'decision' : 'offline';
  if (OFFLINE_STATUSES.has(status) || status >= 500) return 'offline';
  return 'denied';
}

interface Answer {
  status: number;
  body: unknown;
  kind: AnswerKind;
  error?: string;
}

async function ask(fetchImpl: Fetch, url: URL, init: RequestInit, timeoutMs: number): Promise<Answer> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, body, kind: classify(response.status, body !== null && typeof body === 'object') };
  } catch (error) {
    return { status: 0, body: null, kind: 'offline', error: error instanceof Error ? error.message : String(error) };
  }
}

/** The site's published licensing keys; null when they cannot be fetched. */
export async function fetchKeys(
  baseUrl: string,
  { fetch: fetchImpl = globalThis.fetch, timeoutMs = DEFAULT_TIMEOUT_MS }: { fetch?: Fetch; timeoutMs?: number } = {},
): Promise<LicensingJwks | null> {
  const answer = await ask(fetchImpl, new URL(LICENSING_KEYS_PATH, baseUrl), { method: 'GET' }, timeoutMs);
  const keys = (answer.body as { keys?: unknown } | null)?.keys;
  return answer.kind === 'decision' && Array.isArray(keys) ? (answer.body as LicensingJwks) : null;
}

/** 16 random bytes, base64url: echoed inside the signed lease. */
export function newNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export interface DeviceInfo {
  name?: string;
  platform?: string;
  appVersion?: string;
}

export interface CheckOptions {
  baseUrl: string;
  key: string;
  product: ProductSlug;
  /** SHA-256 hex of the device id; never the raw id. */
  fingerprint: string;
  /** Sent with activate (shown in the dashboard's device list) and validate (`appVersion`). */
  device?: DeviceInfo;
  /** The last verified lease: decides whether "offline" is still usable. */
  cachedLease?: string | null;
  licenceId?: string | null;
  /** Keys the client trusts already; fetched from the site when absent or lacking the lease's `kid`. */
  jwks?: LicensingJwks | null;
  fetch?: Fetch;
  timeoutMs?: number;
  now?: number;
  verifier?: SignatureVerifier;
}

export type CheckResult =
  | { status: 'valid'; code: LicenceCode; lease: string; payload: LeasePayload; response: LicenceApiResponse; jwks: LicensingJwks }
  | { status: 'denied'; code: LicenceCode | 'INVALID_LEASE' | null; reason: string; response: unknown }
  | { status: 'deactivated'; code: LicenceCode; response: LicenceApiResponse }
  | { status: 'offline'; reason: string; usable: boolean; graceUntil: string | null; payload: LeasePayload | null };

/** Asks the site once and decides: valid (a verified lease), denied, deactivated or offline. */
export async function check(operation: LicenceOperation, options: CheckOptions): Promise<CheckResult> {
  const { baseUrl, key, product, fingerprint, device = {}, cachedLease = null, licenceId, verifier } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now();
  let jwks = options.jwks ?? null;

  const offline = async (reason: string): Promise<CheckResult> => {
    const cached =
      cachedLease && jwks ? await verifyLease(cachedLease, jwks, { product, fingerprint, licenceId }, { now, verifier }) : null;
    return {
      status: 'offline',
      reason,
      usable: cached?.ok === true,
      graceUntil: cached?.ok ? new Date(cached.payload.grace * 1000).toISOString() : null,
      payload: cached?.ok ? cached.payload : null,
    };
  };

  const nonce = newNonce();
  const extra = operation === 'activate' ? device : operation === 'validate' && device.appVersion ? { appVersion: device.appVersion } : {};
  const answer = await ask(
    fetchImpl,
    new URL(`/api/v1/licenses/${operation}`, baseUrl),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, product, fingerprint, nonce, ...extra }),
    },
    timeoutMs,
  );
  if (answer.kind === 'offline') return offline(answer.error ?? `HTTP ${answer.status}`);
  if (answer.kind === 'denied') return { status: 'denied', code: null, reason: `HTTP ${answer.status}`, response: answer.body };

  const response = answer.body as LicenceApiResponse;
  if (operation === 'deactivate') {
    return response.code === 'DEACTIVATED'
      ? { status: 'deactivated', code: response.code, response }
      : { status: 'denied', code: response.code ?? null, reason: response.detail ?? 'refused', response };
  }
  if (!response.valid) return { status: 'denied', code: response.code ?? null, reason: response.detail ?? 'refused', response };

  const expect = { product, fingerprint, nonce, licenceId: licenceId ?? response.licence?.id };
  let verified = jwks ? await verifyLease(response.lease, jwks, expect, { now, verifier }) : null;
  // No keys yet, or a lease signed by a key rotated in since: ask the site for its published keys.
  if (!jwks || !verified || (!verified.ok && verified.kid !== undefined)) {
    const fetched = await fetchKeys(baseUrl, { fetch: fetchImpl, timeoutMs });
    if (!fetched) return offline('the licensing keys could not be fetched');
    // The site's published set replaces what the client knew: a key the site withdrew is not trusted.
    jwks = fetched;
    verified = await verifyLease(response.lease, jwks, expect, { now, verifier });
  }
  if (!verified.ok) return { status: 'denied', code: 'INVALID_LEASE', reason: verified.reason, response };
  return { status: 'valid', code: response.code, lease: response.lease!, payload: verified.payload, response, jwks };
}
