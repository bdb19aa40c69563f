import type { LicensingJwks } from '../../../../lib/api/licences.js';
import { fingerprintOf, LicenceClient, type LicenceStore, type StoredLicence } from '../../../../lib/licensing/client.js';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';
import { backend } from '../backend.js';
import type { AppInfo } from '../types.js';
import { siteFetch } from './site-fetch.js';

export const PRODUCT = COMPANION_PRODUCTS.apps.slug;

/**
 * The site's licensing keys this build was made with (`npm run build:apps` bundles them from
 * HITSCOPE_LICENSING_JWKS or the site at HITSCOPE_SITE_URL). Without them the app trusts the keys the
 * site publishes the first time it confirms a key, and keeps those (the client's rule).
 */
export const PINNED_KEYS: LicensingJwks | null = __HITSCOPE_PINNED_KEYS__;

/** The licence file in the app's data folder (src-tauri: licence_load / licence_save, readable by this user only). */
const fileStore: LicenceStore = {
  load: async () => {
    const value = await backend.licenceLoad();
    return value && typeof value === 'object' ? (value as StoredLicence) : null;
  },
  save: (value) => backend.licenceSave(value),
  clear: () => backend.licenceClear(),
};

/** The shared licence client (lib/licensing), set up for this machine and the site in Settings. */
export async function createLicenceClient(siteUrl: string, info: AppInfo): Promise<LicenceClient> {
  const machine = await backend.machineId();
  return new LicenceClient({
    siteUrl,
    product: PRODUCT,
    fingerprint: await fingerprintOf(machine.id),
    device: { name: info.hostName, platform: info.platform, appVersion: info.version },
    store: fileStore,
    pinnedKeys: PINNED_KEYS,
    fetch: siteFetch,
  });
}

/** The keys to verify with now: those stored with the licence, else the pinned ones. */
export async function trustedKeys(): Promise<LicensingJwks | null> {
  const stored = await fileStore.load();
  return stored?.keys ?? PINNED_KEYS;
}
