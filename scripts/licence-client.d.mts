// Types of the reference licensing client (scripts/licence-client.mjs), for the test suites.
import type { LeasePayload, LicenceApiResponse, LicensingJwks } from '../lib/api/licences.js';

export const LEASE_TYP: string;
export const KEYS_PATH: string;
export function machineFingerprint(): string;
export function newNonce(): string;
export function classify(status: number, isJson: boolean): 'decision' | 'offline' | 'denied';
export function fetchKeys(baseUrl: string, options?: { fetch?: typeof fetch; timeoutMs?: number }): Promise<LicensingJwks | null>;
export function verifyLease(
  lease: unknown,
  jwks: LicensingJwks | null,
  expect: { product: string; fingerprint: string; licenceId?: string; nonce?: string | null },
  now?: number,
): { ok: true; payload: LeasePayload } | { ok: false; reason: string };

export type Decision =
  | { status: 'valid'; code: string; lease: string; payload: LeasePayload; response: LicenceApiResponse }
  | { status: 'deactivated'; code: string; response: LicenceApiResponse }
  | { status: 'denied'; code: string | null; reason: string; response: unknown }
  | { status: 'offline'; reason: string; usable: boolean; graceUntil: string | null };

export function check(
  operation: 'activate' | 'validate' | 'deactivate',
  options: {
    baseUrl: string;
    key: string;
    product: string;
    fingerprint?: string;
    device?: { name?: string; platform?: string; appVersion?: string };
    cachedLease?: string | null;
    licenceId?: string;
    jwks?: LicensingJwks | null;
    fetch?: typeof fetch;
    timeoutMs?: number;
    now?: number;
  },
): Promise<Decision>;
