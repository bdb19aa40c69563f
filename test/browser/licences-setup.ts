import { createHash } from 'node:crypto';
import { type APIRequestContext, expect, request as playwrightRequest } from '@playwright/test';
import type { GrantLicenceRequest, LicenceApiResponse, OwnedLicenceList } from '../../lib/api/licences.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { csrfToken, signInAsAdmin } from './fixtures.js';

export const APPS = COMPANION_PRODUCTS.apps;

export interface Device {
  name: string;
  platform: string;
  appVersion: string;
}

export const DEVICES: readonly Device[] = [
  { name: 'Work laptop', platform: 'macOS 15', appVersion: '1.4.2' },
  { name: 'Studio desktop', platform: 'Windows 11', appVersion: '1.4.0' },
];

/** A device's fingerprint as the apps compute it: SHA-256 hex of a machine id. */
export const fingerprintOf = (device: Device) => createHash('sha256').update(`browser-suite:${device.name}`).digest('hex');

/**
 * Gives the user signed in on `user` a licence for Hitscope for Apps through the admin API (in a
 * request context of its own, so the user's session is untouched), then activates `devices` with
 * its key the way the app does. Returns the user's licence list afterwards.
 */
export async function grantAndActivate(
  user: APIRequestContext,
  baseURL: string,
  { seats = 3, devices = DEVICES }: { seats?: number; devices?: readonly Device[] } = {},
): Promise<OwnedLicenceList> {
  const me = (await (await user.get('/api/auth/me')).json()) as { id: string };
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    await signInAsAdmin(admin);
    const grant: GrantLicenceRequest = { planId: 'team', products: [APPS.slug], seats, note: 'browser suite' };
    const granted = await admin.post(`/api/admin/users/${me.id}/licences`, {
      data: grant,
      headers: { 'x-csrf-token': await csrfToken(admin) },
    });
    expect(granted.status(), 'grant a licence').toBe(201);
  } finally {
    await admin.dispose();
  }
  const list = (await (await user.get('/api/licences')).json()) as OwnedLicenceList;
  const key = list.licences[0]?.key;
  expect(key, 'the owner sees the key').toBeTruthy();
  for (const device of devices) {
    const response = await user.post('/api/v1/licenses/activate', {
      data: { key, product: APPS.slug, fingerprint: fingerprintOf(device), ...device },
    });
    expect(response.status()).toBe(200);
    const answer = (await response.json()) as LicenceApiResponse;
    expect(answer.code, `activate ${device.name}`).toBe('VALID');
  }
  return (await (await user.get('/api/licences')).json()) as OwnedLicenceList;
}

const DAY = 24 * 3600 * 1000;
const isoDaysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/**
 * Licences in the states a fresh database cannot reach quickly (past due with grace, revoked, a key
 * that cannot be decrypted, a released device), served in place of `GET /api/licences`.
 */
export function licencesInEveryState(): OwnedLicenceList {
  const base = {
    planId: 'team',
    seats: 5,
    graceUntil: null,
    source: 'subscription' as const,
    deactivationsLeftThisMonth: 10,
  };
  return {
    licences: [
      {
        ...base,
        id: 'lic_pastdue0000000000000000000',
        sourceId: 'sub_pastdue',
        product: COMPANION_PRODUCTS.apps.slug,
        productName: COMPANION_PRODUCTS.apps.name,
        status: 'past_due',
        valid: true,
        seatsUsed: 5,
        expiresAt: isoDaysFromNow(-2),
        graceUntil: isoDaysFromNow(12),
        key: 'HSA-MEV58-9CQPB-TNM4Y-YGNR8-B',
        keyHint: 'NR8B',
        activations: [
          {
            id: 'a'.repeat(64),
            name: 'A very long device name that someone typed into the app, MacBook Pro 16-inch 2023',
            platform: 'macOS 15.1',
            appVersion: '1.4.2',
            activatedAt: isoDaysFromNow(-90),
            lastSeenAt: isoDaysFromNow(-1),
            released: false,
          },
          {
            id: 'b'.repeat(64),
            name: '',
            platform: '',
            appVersion: '',
            activatedAt: isoDaysFromNow(-120),
            lastSeenAt: isoDaysFromNow(-45),
            released: true,
          },
        ],
      },
      {
        ...base,
        id: 'lic_revoked000000000000000000',
        sourceId: 'gr_revoked',
        product: COMPANION_PRODUCTS.browsers.slug,
        productName: COMPANION_PRODUCTS.browsers.name,
        status: 'revoked',
        valid: false,
        seatsUsed: 0,
        source: 'grant',
        expiresAt: isoDaysFromNow(200),
        key: null,
        keyHint: '4QX2',
        activations: [],
      },
    ],
  };
}
