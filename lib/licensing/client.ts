/**
 * The companions' licence client: a key entered once, a seat on this device, and a signed lease kept
 * in the companion's own storage and verified offline. The browser extension (chrome.storage), the
 * desktop app (a file in its data folder) and scripts/licence-client.mjs use this one client.
 *
 * States (docs/licensing.md, "Client rules"):
 * - no key: the free tier;
 * - a lease verified for this licence, product and device, before its `exp`: paid, `online`;
 *   after `exp` but before `grace` (the site could not be asked): paid, `grace`, with a notice;
 * - a decision against (revoked, expired, no seats, another product…): the free tier at once;
 * - a lease past its grace, or a key never confirmed and the site unreachable: the free tier, saying why.
 * Capture and analysis never stop in the middle of a session because of a licence: the companions
 * decide what "paid" unlocks, and the free tier keeps working in every state.
 */
import type { LeasePayload, LicenceCode, LicensingJwks } from '../api/licences.js';
import { type ProductSlug, parseKey } from '../licences/key.js';
import { check, type CheckResult, type DeviceInfo, DEFAULT_TIMEOUT_MS } from './check.js';
import { verifyLease } from './lease.js';
import { type SignatureVerifier, webCryptoVerifier } from './signature.js';

/** What a companion keeps between runs. */
export interface StoredLicence {
  /** The key as normalised for display (`HSB-XXXXX-…-C`). */
  key: string;
  /** The site the key was entered for: a lease from one site means nothing to another. */
  siteUrl: string;
  lease: string | null;
  licenceId: string | null;
  /** The site's published keys when the lease was last verified (they verify it offline later). */
  keys: LicensingJwks | null;
  /** Milliseconds since the epoch of the last answer from the site (a decision, either way). */
  checkedAt: number | null;
  /** The last decision against, or null. */
  denied: { code: LicenceCode | 'INVALID_LEASE' | null; detail: string } | null;
}

export interface LicenceStore {
  load(): Promise<StoredLicence | null>;
  save(value: StoredLicence): Promise<void>;
  clear(): Promise<void>;
}

export type LicenceState =
  | { tier: 'free'; reason: 'none' }
  | {
      tier: 'paid';
      /** `online`: the lease is current. `grace`: past its `exp`, the site not reached since; works until `graceUntil`. */
      mode: 'online' | 'grace';
      key: string;
      licenceId: string;
      plan: string;
      seats: number;
      /** Milliseconds since the epoch. */
      expiresAt: number;
      graceUntil: number;
      checkedAt: number | null;
      /** Why the last attempt to reach the site failed, when it did. */
      offlineReason: string | null;
    }
  | { tier: 'free'; reason: 'denied'; key: string; code: LicenceCode | 'INVALID_LEASE' | null; detail: string }
  | { tier: 'free'; reason: 'expired'; key: string; detail: string }
  | { tier: 'free'; reason: 'unverified'; key: string; detail: string };

export interface LicenceClientOptions {
  /** The Hitscope site that sold the key (self-hosted sites too). */
  siteUrl: string;
  product: ProductSlug;
  /** SHA-256 hex of the device id ({@link fingerprintOf}). */
  fingerprint: string;
  device?: DeviceInfo;
  store: LicenceStore;
  /** Keys shipped with the build, trusted before the site has been asked. */
  pinnedKeys?: LicensingJwks | null;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  timeoutMs?: number;
  verifier?: SignatureVerifier;
}

/** How often a companion asks the site when it can (a lease lasts 7 days; a day keeps it fresh). */
export const REVALIDATE_AFTER_MS = 24 * 60 * 60 * 1000;

/** The device's fingerprint: SHA-256 hex of `hitscope:<id>`, so the raw id never leaves the device. */
export async function fingerprintOf(deviceId: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(`hitscope:${deviceId}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A new random device id (the extension keeps one per install, never synced between machines). */
export const newDeviceId = (): string => globalThis.crypto.randomUUID();

export class LicenceClient {
  private readonly now: () => number;
  private readonly verifier: SignatureVerifier;

  constructor(private readonly options: LicenceClientOptions) {
    this.now = options.now ?? Date.now;
    this.verifier = options.verifier ?? webCryptoVerifier;
  }

  /** What the stored lease allows now, without asking the site. */
  async state(): Promise<LicenceState> {
    return this.evaluate(await this.load(), null);
  }

  /** True when the site should be asked again (a day since the last answer, or the lease near its end). */
  async refreshDue(): Promise<boolean> {
    const stored = await this.load();
    if (!stored || (stored.denied && !stored.lease)) return false;
    if (stored.checkedAt === null) return true;
    return this.now() - stored.checkedAt >= REVALIDATE_AFTER_MS;
  }

  /** Takes a seat for this device with `key` (typed as people type it). */
  async activate(input: string): Promise<LicenceState> {
    const parsed = parseKey(input);
    if (!parsed) {
      return {
        tier: 'free',
        reason: 'denied',
        key: input.trim(),
        code: 'NOT_FOUND',
        detail: 'This is not a licence key: check it for typos.',
      };
    }
    if (parsed.product !== this.options.product) {
      return { tier: 'free', reason: 'denied', key: parsed.formatted, code: 'WRONG_PRODUCT', detail: 'This key is for the other product.' };
    }
    const previous = await this.load();
    const fresh: StoredLicence = {
      key: parsed.formatted,
      siteUrl: this.options.siteUrl,
      lease: null,
      licenceId: null,
      keys: previous?.siteUrl === this.options.siteUrl ? previous.keys : null,
      checkedAt: null,
      denied: null,
    };
    return this.apply('activate', fresh);
  }

  /** Asks the site about the stored key; offline keeps the stored lease until its grace. */
  async validate(): Promise<LicenceState> {
    const stored = await this.load();
    if (!stored) return { tier: 'free', reason: 'none' };
    return this.apply('validate', stored);
  }

  /**
   * Gives this device's seat back. Offline, nothing changes (the seat would stay taken on the
   * site); `forget` removes the key locally when a person wants that anyway.
   */
  async deactivate(): Promise<{ state: LicenceState; error: string | null }> {
    const stored = await this.load();
    if (!stored) return { state: { tier: 'free', reason: 'none' }, error: null };
    const result = await this.ask('deactivate', stored);
    if (
      result.status === 'deactivated' ||
      (result.status === 'denied' && (result.code === 'NOT_ACTIVATED' || result.code === 'NOT_FOUND'))
    ) {
      await this.options.store.clear();
      return { state: { tier: 'free', reason: 'none' }, error: null };
    }
    const error =
      result.status === 'offline' ? `The site could not be reached (${result.reason}).` : result.status === 'denied' ? result.reason : null;
    return { state: await this.evaluate(stored, result.status === 'offline' ? result.reason : null), error };
  }

  /** Removes the key and lease from this device without telling the site. */
  async forget(): Promise<void> {
    await this.options.store.clear();
  }

  private async load(): Promise<StoredLicence | null> {
    const stored = await this.options.store.load();
    // A key entered for another site is not this site's to judge.
    return stored && stored.siteUrl === this.options.siteUrl ? stored : null;
  }

  private ask(operation: 'activate' | 'validate' | 'deactivate', stored: StoredLicence): Promise<CheckResult> {
    return check(operation, {
      baseUrl: this.options.siteUrl,
      key: stored.key,
      product: this.options.product,
      fingerprint: this.options.fingerprint,
      device: this.options.device,
      cachedLease: stored.lease,
      licenceId: stored.licenceId,
      jwks: stored.keys ?? this.options.pinnedKeys ?? null,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      now: this.now(),
      verifier: this.verifier,
    });
  }

  private async apply(operation: 'activate' | 'validate', stored: StoredLicence): Promise<LicenceState> {
    const result = await this.ask(operation, stored);
    const now = this.now();
    if (result.status === 'valid') {
      const next: StoredLicence = {
        ...stored,
        lease: result.lease,
        licenceId: result.payload.lic,
        keys: result.jwks,
        checkedAt: now,
        denied: null,
      };
      await this.options.store.save(next);
      return this.evaluate(next, null);
    }
    if (result.status === 'denied') {
      // Fail closed: the lease goes, the key stays so the person sees what was refused and why.
      const next: StoredLicence = { ...stored, lease: null, checkedAt: now, denied: { code: result.code, detail: result.reason } };
      await this.options.store.save(next);
      return this.evaluate(next, null);
    }
    if (result.status === 'offline') {
      if (operation === 'activate' && !stored.lease) await this.options.store.save(stored);
      return this.evaluate(stored, result.reason);
    }
    return this.evaluate(stored, null);
  }

  private async evaluate(stored: StoredLicence | null, offlineReason: string | null): Promise<LicenceState> {
    if (!stored) return { tier: 'free', reason: 'none' };
    if (stored.denied && !stored.lease)
      return { tier: 'free', reason: 'denied', key: stored.key, code: stored.denied.code, detail: stored.denied.detail };
    if (!stored.lease) {
      return {
        tier: 'free',
        reason: 'unverified',
        key: stored.key,
        detail: offlineReason ? `The site could not be reached (${offlineReason}).` : 'The key has not been confirmed by the site yet.',
      };
    }
    const now = this.now();
    const verified = await verifyLease(
      stored.lease,
      stored.keys ?? this.options.pinnedKeys ?? null,
      { product: this.options.product, fingerprint: this.options.fingerprint, licenceId: stored.licenceId },
      { now, verifier: this.verifier },
    );
    if (!verified.ok) {
      return verified.reason === 'lease and its grace are over'
        ? {
            tier: 'free',
            reason: 'expired',
            key: stored.key,
            detail: 'The licence could not be confirmed for too long: connect to the site to check it again.',
          }
        : { tier: 'free', reason: 'denied', key: stored.key, code: 'INVALID_LEASE', detail: verified.reason };
    }
    const payload: LeasePayload = verified.payload;
    return {
      tier: 'paid',
      mode: payload.exp * 1000 > now ? 'online' : 'grace',
      key: stored.key,
      licenceId: payload.lic,
      plan: payload.plan,
      seats: payload.seats,
      expiresAt: payload.exp * 1000,
      graceUntil: payload.grace * 1000,
      checkedAt: stored.checkedAt,
      offlineReason,
    };
  }
}

/** A store in memory: for tests and for a companion that keeps nothing between runs. */
export function memoryStore(initial: StoredLicence | null = null): LicenceStore & { value: StoredLicence | null } {
  const store = {
    value: initial,
    load: async () => store.value,
    save: async (value: StoredLicence) => {
      store.value = structuredClone(value);
    },
    clear: async () => {
      store.value = null;
    },
  };
  return store;
}
