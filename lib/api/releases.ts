/**
 * Request and response shapes of the releases API (design: docs/releases.md):
 * the administration's uploads, the site's latest-release listing and downloads, and the apps'
 * update check (`/api/v1/releases/*`).
 */
import type { ProductSlug } from '../licences/key.js';

export const RELEASE_PLATFORMS = ['windows', 'macos', 'linux', 'chrome', 'firefox', 'edge'] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];
export const RELEASE_ARCHES = ['x64', 'arm64', 'universal'] as const;
export type ReleaseArch = (typeof RELEASE_ARCHES)[number];
export const RELEASE_CHANNELS = ['stable', 'beta'] as const;
/**
 * The package format of a build, what its file is: Linux ships a .deb and an .rpm of one version for
 * one platform and arch, so a release is unique on (product, platform, arch, channel, version, format).
 * Given with the upload or read from the file name (lib/releases/formats.ts); null for another kind
 * of file (a .crx, a .tar.gz).
 */
export const RELEASE_FORMATS = ['deb', 'rpm', 'dmg', 'msi', 'exe', 'zip', 'xpi'] as const;
export type ReleaseFormat = (typeof RELEASE_FORMATS)[number];
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];
export type ReleaseStatus = 'published' | 'yanked';

/** The largest build an administrator can upload (512 MiB). */
export const RELEASE_MAX_BYTES = 512 * 1024 * 1024;
/** Release notes (Markdown), in characters. */
export const RELEASE_NOTES_MAX_LENGTH = 20_000;
/** A build's file name: a plain name (no path), 1-128 characters of letters, digits and `._+-`. */
export const RELEASE_FILENAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/**
 * `POST /api/admin/releases`: multipart/form-data. The text fields come first, then the build in
 * the field {@link RELEASE_FILE_FIELD} (the server streams it to storage as it arrives, so it must
 * know what it is receiving before the first byte). `size` is the file's exact byte length.
 */
export interface UploadReleaseFields {
  product: ProductSlug;
  platform: ReleasePlatform;
  arch: ReleaseArch;
  channel: ReleaseChannel;
  version: string;
  /** Optional: read from the file name when absent (`.deb` → deb); when given it must agree with it. */
  format?: ReleaseFormat;
  notes?: string;
  size: string;
}
export const RELEASE_FILE_FIELD = 'file';

/** Ed25519 over the 32-byte SHA-256 digest of the file, with the licensing key `kid` (JWKS at `/.well-known/hitscope-licensing-keys.json`). */
export interface ReleaseSignature {
  alg: 'EdDSA';
  kid: string;
  /** base64url */
  value: string;
}

export interface ReleaseFileInfo {
  filename: string;
  size: number;
  /** Lower-case hex. */
  sha256: string;
  contentType: string;
}

/** A release as the site shows it (`GET /api/releases/latest`). */
export interface PublicRelease {
  id: string;
  product: ProductSlug;
  platform: ReleasePlatform;
  arch: ReleaseArch;
  channel: ReleaseChannel;
  version: string;
  format: ReleaseFormat | null;
  /** Markdown, as the administrator wrote it. */
  notes: string;
  /**
   * `notes` rendered on the server with the site's Markdown renderer (lib/markdown: raw HTML
   * escaped, safe links only, no images), its headings from `<h4>` down: what the pages show.
   */
  notesHtml: string;
  file: ReleaseFileInfo;
  signature: ReleaseSignature;
  /** ISO 8601. */
  publishedAt: string;
  /** `GET` it signed in with a licence for the product. */
  downloadUrl: string;
}

/** `GET /api/releases/latest?product=`: the newest published stable release per platform and arch. */
export interface LatestReleasesResponse {
  product: ProductSlug;
  releases: PublicRelease[];
}

/** A release in the administration, yanked ones included. */
export interface AdminRelease extends PublicRelease {
  status: ReleaseStatus;
  /** ISO 8601, or null. */
  yankedAt: string | null;
  downloads: number;
}

/** `GET /api/admin/releases?product=`, newest first. */
export interface AdminReleaseList {
  releases: AdminRelease[];
}

/**
 * `GET /api/v1/releases/latest?product&platform&arch&channel&current` (the apps' update check; no
 * cookies). With `Authorization: License <key>`, `entitled` says whether that key may download.
 * The beta channel offers the newest of beta and stable.
 */
export interface UpdateCheckResponse {
  updateAvailable: boolean;
  entitled: boolean | null;
  latest: {
    version: string;
    notes: string;
    sha256: string;
    size: number;
    /** The package format (the check's `format`, else the platform's usual one). */
    format: ReleaseFormat | null;
    signature: ReleaseSignature;
    /** `GET` it with the same `Authorization: License <key>` header. */
    url: string;
  } | null;
}
