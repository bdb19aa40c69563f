import type { ReleaseArch, ReleasePlatform } from '../../../lib/api/releases.js';
import { COMPANION_PRODUCTS, type ProductSlug } from '../../../lib/product.js';

const PRODUCT_NAMES = Object.fromEntries(Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name])) as Record<
  ProductSlug,
  string
>;

export const productName = (slug: ProductSlug): string => PRODUCT_NAMES[slug] ?? slug;

/** "512 B", "1.5 KB", "12.3 MB", "1.02 GB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

export const PLATFORM_LABELS: Record<ReleasePlatform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  chrome: 'Chrome',
  firefox: 'Firefox',
  edge: 'Edge',
};

export const ARCH_LABELS: Record<ReleaseArch, string> = { x64: 'x64', arm64: 'ARM64', universal: 'Universal' };
