// Types of the reference licensing client (scripts/licence-client.mjs), for the test suites: the
// shared client of lib/licensing, compiled.
import type { LicensingJwks } from '../lib/api/licences.js';
import type { LeaseCheck, LeaseExpectation } from '../lib/licensing/lease.js';

export { check, classify, fetchKeys, newNonce } from '../lib/licensing/check.js';
export type { CheckResult as Decision } from '../lib/licensing/check.js';
export const LEASE_TYP: string;
export const KEYS_PATH: string;
export function machineFingerprint(): string;
export function verifyLease(lease: unknown, jwks: LicensingJwks | null, expect: LeaseExpectation, now?: number): Promise<LeaseCheck>;
