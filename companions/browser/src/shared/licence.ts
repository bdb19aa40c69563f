import type { LicensingJwks } from '../../../../lib/api/licences.js';
import {
  fingerprintOf,
  LicenceClient,
  type LicenceState,
  type LicenceStore,
  newDeviceId,
  type StoredLicence,
} from '../../../../lib/licensing/client.js';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';

export const PRODUCT = COMPANION_PRODUCTS.browsers.slug;

/**
 * The site's licensing keys bundled with this build (HITSCOPE_LICENSING_JWKS at build time), or null:
 * then the keys the site publishes are trusted the first time it confirms a key, and kept with the
 * licence (the shared client's rule, lib/licensing/client.ts).
 */
declare const __HITSCOPE_PINNED_KEYS__: LicensingJwks | null;

const LICENCE_KEY = 'licence';
const DEVICE_KEY = 'deviceId';

/** The licence in `chrome.storage.local`: this browser profile only, never synced to another machine. */
const store: LicenceStore = {
  load: async () => ((await chrome.storage.local.get(LICENCE_KEY))[LICENCE_KEY] as StoredLicence | undefined) ?? null,
  save: (value) => chrome.storage.local.set({ [LICENCE_KEY]: value }),
  clear: () => chrome.storage.local.remove(LICENCE_KEY),
};

/**
 * A random id made on first use and kept in this profile's local storage. Only its SHA-256 leaves
 * the browser (the licence's seat for this device); a reinstall makes a new one, and the old seat is
 * freed from the dashboard or after 30 days unseen.
 */
export async function deviceId(): Promise<string> {
  const stored = (await chrome.storage.local.get(DEVICE_KEY))[DEVICE_KEY];
  if (typeof stored === 'string' && stored) return stored;
  const id = newDeviceId();
  await chrome.storage.local.set({ [DEVICE_KEY]: id });
  return id;
}

function browserName(): string {
  const brands = (navigator as Navigator & { userAgentData?: { brands?: Array<{ brand: string }> } }).userAgentData?.brands ?? [];
  const known = brands.map((entry) => entry.brand).find((brand) => /Chrome|Chromium|Edge|Opera|Brave/.test(brand));
  if (known) return known.replace('Google ', '');
  return /Firefox\//.test(navigator.userAgent) ? 'Firefox' : 'Browser';
}

export async function createLicenceClient(siteUrl: string): Promise<LicenceClient> {
  const platform = await chrome.runtime.getPlatformInfo().then(
    (info) => info.os,
    () => '',
  );
  return new LicenceClient({
    siteUrl,
    product: PRODUCT,
    fingerprint: await fingerprintOf(await deviceId()),
    device: {
      name: `${browserName()} on ${platform || 'this computer'}`,
      platform: `${browserName()} (${platform})`,
      appVersion: chrome.runtime.getManifest().version,
    },
    store,
    pinnedKeys: __HITSCOPE_PINNED_KEYS__,
  });
}

/** What a licence unlocks (docs/browser-extension.md, "Free and licensed"). */
export const isLicensed = (state: LicenceState | null): boolean => state?.tier === 'paid';
