#!/usr/bin/env node
// Reference client of the licensing API: what the desktop app and the extension do, in plain Node
// (node:crypto and fetch only), importable by tests and runnable from the command line:
//
//   node scripts/licence-client.mjs activate   --url https://hitscope.example --key HSA-… --product hitscope-for-apps [--name "My laptop"]
//   node scripts/licence-client.mjs validate   --url … --key … --product … [--lease <jws>]
//   node scripts/licence-client.mjs deactivate --url … --key … --product …
//
// It prints the decision as JSON and exits 0 (valid), 1 (denied) or 2 (offline: the lease's grace decides).
//
// The rules every client must follow (research §1.2):
// - A 200 answer is a decision: trust it only through the signed lease, verified offline against the
//   published keys (JWKS), for this licence, this product, this device and the nonce just sent.
// - 408, 429, 5xx, a network error or a 2xx that is not JSON mean "could not ask": the app keeps
//   working on its last lease until the lease's `grace`.
// - Every other 4xx means "denied" (fail closed).
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';

export const LEASE_TYP = 'hitscope-lease+jwt';
export const KEYS_PATH = '/.well-known/hitscope-licensing-keys.json';

const OFFLINE_STATUSES = new Set([408, 429]);

/** SHA-256 of the machine id (never sent raw); the extension hashes a random install id instead. */
export function machineFingerprint() {
  let id = hostname();
  try {
    id = readFileSync('/etc/machine-id', 'utf8').trim() || id;
  } catch {
    // not Linux, or not readable: the host name will do for a reference client
  }
  return createHash('sha256').update(`hitscope:${id}`).digest('hex');
}

export const newNonce = () => randomBytes(16).toString('base64url');

/** How a client must read an HTTP outcome: a decision, "offline" or "denied". */
export function classify(status, isJson) {
  if (status >= 200 && status < 300) return isJson ? 'decision' : 'offline';
  if (OFFLINE_STATUSES.has(status) || status >= 500) return 'offline';
  return 'denied';
}

async function request(fetchImpl, url, init, timeoutMs) {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body = null;
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

/** The published public keys; null when they cannot be fetched (then pinned or cached keys serve). */
export async function fetchKeys(baseUrl, { fetch: fetchImpl = globalThis.fetch, timeoutMs = 10_000 } = {}) {
  const result = await request(fetchImpl, new URL(KEYS_PATH, baseUrl), { method: 'GET' }, timeoutMs);
  return result.kind === 'decision' && Array.isArray(result.body?.keys) ? result.body : null;
}

const decodeSegment = (segment) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

/**
 * Verifies a lease offline. `expect` names what it must be about: `product` and `fingerprint`
 * always, `licenceId` when known, `nonce` right after asking (a replayed answer carries an old
 * one). Answers `{ ok: true, payload }` or `{ ok: false, reason }`.
 */
export function verifyLease(lease, jwks, expect, now = Date.now()) {
  if (typeof lease !== 'string') return { ok: false, reason: 'no lease' };
  const parts = lease.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a compact JWS' };
  let header;
  let payload;
  try {
    header = decodeSegment(parts[0]);
    payload = decodeSegment(parts[1]);
  } catch {
    return { ok: false, reason: 'unreadable lease' };
  }
  if (header.alg !== 'EdDSA' || header.typ !== LEASE_TYP) return { ok: false, reason: 'not a lease (alg or typ)' };
  const jwk = jwks?.keys?.find((key) => key.kid === header.kid && key.kty === 'OKP' && key.crv === 'Ed25519');
  if (!jwk) return { ok: false, reason: `unknown signing key ${header.kid}` };
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'))) {
    return { ok: false, reason: 'bad signature' };
  }
  if (payload.sub !== 'lease') return { ok: false, reason: 'not a lease (sub)' };
  if (payload.prod !== expect.product) return { ok: false, reason: 'lease for another product' };
  if (payload.fp !== expect.fingerprint) return { ok: false, reason: 'lease for another device' };
  if (expect.licenceId && payload.lic !== expect.licenceId) return { ok: false, reason: 'lease for another licence' };
  if (expect.nonce !== undefined && payload.nonce !== expect.nonce) return { ok: false, reason: 'nonce mismatch (replayed answer)' };
  if (!Number.isInteger(payload.exp) || !Number.isInteger(payload.grace)) return { ok: false, reason: 'lease without exp or grace' };
  if (payload.grace * 1000 <= now) return { ok: false, reason: 'lease and its grace are over' };
  return { ok: true, payload };
}

/**
 * Asks the server (`activate`, `validate` or `deactivate`) and decides:
 * - `{ status: 'valid', lease, payload, response }` — a verified lease for this device;
 * - `{ status: 'denied', code, reason, response }` — a decision against, or a 4xx;
 * - `{ status: 'offline', usable, graceUntil, reason }` — could not ask; `usable` says whether the
 *   cached lease (verified offline) still covers today.
 */
export async function check(operation, options) {
  const {
    baseUrl,
    key,
    product,
    fingerprint = machineFingerprint(),
    device = {},
    cachedLease = null,
    licenceId,
    fetch: fetchImpl = globalThis.fetch,
    timeoutMs = 10_000,
    now = Date.now(),
  } = options;
  let jwks = options.jwks ?? null;
  const offline = (reason) => {
    const cached = cachedLease && jwks ? verifyLease(cachedLease, jwks, { product, fingerprint, licenceId }, now) : { ok: false };
    return {
      status: 'offline',
      reason,
      usable: cached.ok,
      graceUntil: cached.ok ? new Date(cached.payload.grace * 1000).toISOString() : null,
    };
  };

  const nonce = newNonce();
  const body = { key, product, fingerprint, nonce, ...(operation === 'activate' ? device : {}) };
  const response = await request(
    fetchImpl,
    new URL(`/api/v1/licenses/${operation}`, baseUrl),
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    timeoutMs,
  );
  if (response.kind === 'offline') return offline(response.error ?? `HTTP ${response.status}`);
  if (response.kind === 'denied') return { status: 'denied', code: null, reason: `HTTP ${response.status}`, response: response.body };

  const answer = response.body;
  if (operation === 'deactivate') {
    return answer.code === 'DEACTIVATED'
      ? { status: 'deactivated', code: answer.code, response: answer }
      : { status: 'denied', code: answer.code, reason: answer.detail, response: answer };
  }
  if (!answer.valid) return { status: 'denied', code: answer.code, reason: answer.detail, response: answer };
  jwks ??= await fetchKeys(baseUrl, { fetch: fetchImpl, timeoutMs });
  if (!jwks) return offline('the licensing keys could not be fetched');
  const verified = verifyLease(answer.lease, jwks, { product, fingerprint, nonce, licenceId: licenceId ?? answer.licence?.id }, now);
  if (!verified.ok) return { status: 'denied', code: 'INVALID_LEASE', reason: verified.reason, response: answer };
  return { status: 'valid', code: answer.code, lease: answer.lease, payload: verified.payload, response: answer };
}

function parseArgs(argv) {
  const [operation, ...rest] = argv;
  const options = {};
  for (let i = 0; i < rest.length; i += 2) {
    if (!rest[i].startsWith('--')) throw new Error(`Unexpected argument ${rest[i]}`);
    options[rest[i].slice(2)] = rest[i + 1];
  }
  return { operation, options };
}

async function main() {
  const { operation, options } = parseArgs(process.argv.slice(2));
  if (!['activate', 'validate', 'deactivate'].includes(operation) || !options.url || !options.key || !options.product) {
    console.error(
      'usage: licence-client.mjs activate|validate|deactivate --url <base URL> --key <key> --product <slug> [--fingerprint <hex>] [--name <device name>] [--lease <jws>]',
    );
    process.exit(64);
  }
  const decision = await check(operation, {
    baseUrl: options.url,
    key: options.key,
    product: options.product,
    fingerprint: options.fingerprint ?? machineFingerprint(),
    device: { name: options.name ?? hostname(), platform: process.platform, appVersion: 'reference-client' },
    cachedLease: options.lease ?? null,
  });
  console.log(JSON.stringify(decision, null, 2));
  process.exit(decision.status === 'valid' || decision.status === 'deactivated' ? 0 : decision.status === 'offline' ? 2 : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
