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
