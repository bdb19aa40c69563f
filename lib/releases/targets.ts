import type { ReleaseArch, ReleasePlatform } from '../api/releases.js';
import { COMPANION_PRODUCTS, type ProductSlug } from '../product.js';
import { ARCH_LABELS, PLATFORM_LABELS } from './labels.js';

/**
 * What each companion product ships on: the one table of valid product × platform × arch. The
 * releases API refuses any other combination (400 naming the field), the admin upload form offers
 * only these choices, and the extension's and desktop app's build scripts publish through the same
 * API, so they meet the same rule. docs/releases.md explains the choices.
 *
 * - Hitscope for Browsers is a Manifest V3 extension: one package per browser store (Chrome, Firefox,
 *   Edge), the same for every processor, so its only arch is `universal`.
 * - Hitscope for Apps is a Tauri app built per operating system and processor: Windows and Linux on
 *   x64 and arm64; macOS on x64 and arm64, or one `universal` binary holding both.
 */
export const RELEASE_TARGETS: Readonly<Record<ProductSlug, Readonly<Partial<Record<ReleasePlatform, readonly ReleaseArch[]>>>>> = {
  [COMPANION_PRODUCTS.browsers.slug]: {
    chrome: ['universal'],
    firefox: ['universal'],
    edge: ['universal'],
  },
  [COMPANION_PRODUCTS.apps.slug]: {
    windows: ['x64', 'arm64'],
    macos: ['x64', 'arm64', 'universal'],
    linux: ['x64', 'arm64'],
  },
};

const PRODUCT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name]),
);

/** The platforms a product ships on, in table order (an unknown product: none). */
export function platformsOf(product: ProductSlug): ReleasePlatform[] {
  return Object.keys(RELEASE_TARGETS[product] ?? {}) as ReleasePlatform[];
}

/** The architectures a product is built for on a platform (none when it does not ship there). */
export function archesOf(product: ProductSlug, platform: ReleasePlatform): readonly ReleaseArch[] {
  return RELEASE_TARGETS[product]?.[platform] ?? [];
}

export function isReleaseTarget(product: ProductSlug, platform: ReleasePlatform, arch: ReleaseArch): boolean {
  return archesOf(product, platform).includes(arch);
}

/**
 * What is wrong with a combination, by field, in words an administrator (or a build script's log)
 * can act on; null when the product ships on it. Only meaningful once each value is known to be
 * one of its enum's: the API checks that first.
 */
export function releaseTargetProblem(
  product: ProductSlug,
  platform: ReleasePlatform,
  arch: ReleaseArch,
): { field: 'platform' | 'arch'; message: string } | null {
  const name = PRODUCT_NAMES[product] ?? product;
  const platforms = platformsOf(product);
  if (!platforms.includes(platform)) {
    return {
      field: 'platform',
      message: `${name} does not ship on ${PLATFORM_LABELS[platform] ?? platform}: choose one of ${platforms.join(', ')}`,
    };
  }
  const arches = archesOf(product, platform);
  if (!arches.includes(arch)) {
    return {
      field: 'arch',
      message: `${name} on ${PLATFORM_LABELS[platform]} is built for ${arches.join(', ')}, not ${ARCH_LABELS[arch] ?? arch}`,
    };
  }
  return null;
}
