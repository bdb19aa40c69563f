#!/usr/bin/env node
// The reference client of the licensing API on the command line: the shared licence client of the
// companions (lib/licensing, compiled into dist/ by `npm run build`) run from Node, importable by tests.
//
//   node scripts/licence-client.mjs activate   --url https://hitscope.example --key HSA-… --product hitscope-for-apps [--name "My laptop"]
//   node scripts/licence-client.mjs validate   --url … --key … --product … [--lease <jws>]
//   node scripts/licence-client.mjs deactivate --url … --key … --product …
//
// It prints the decision as JSON and exits 0 (valid), 1 (denied) or 2 (offline: the lease's grace decides).
// The rules every client follows are in lib/licensing/check.ts and docs/licensing.md ("Client rules").
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/app/lib/licensing/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('check.js', compiled)))) {
  console.error('The licence client is compiled by the build: run `npm run build` first.');
  process.exit(70);
}
const protocol = await import(new URL('check.js', compiled).href);
const lease = await import(new URL('lease.js', compiled).href);

export const { classify, fetchKeys, newNonce, check } = protocol;
export const LEASE_TYP = 'hitscope-lease+jwt';
export const KEYS_PATH = '/.well-known/hitscope-licensing-keys.json';

/** Verifies a lease offline (`now` in milliseconds); answers `{ ok: true, payload }` or `{ ok: false, reason }`. */
export const verifyLease = (jws, jwks, expect, now = Date.now()) => lease.verifyLease(jws, jwks, expect, { now });

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
