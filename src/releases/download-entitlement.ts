import type { ProductSlug } from '../../lib/licences/key.js';

/**
 * What the releases module asks before a download (design: docs/releases.md),
 * implemented by the licences module.
 */
export interface DownloadEntitlement {
  /** The signed-in user holds a licence for `product` that is valid now. */
  canDownload(userId: string, product: ProductSlug): Promise<boolean>;
  /** `key` is a licence key for `product` that is valid now (downloads from the apps' updaters). */
  keyAllows(key: string, product: ProductSlug): Promise<boolean>;
}

/** Injection token of the {@link DownloadEntitlement} (provided and exported by the licences module). */
export const DOWNLOAD_ENTITLEMENT = Symbol('DownloadEntitlement');
