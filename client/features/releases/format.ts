import type { ReleaseArch, ReleasePlatform } from '../../../lib/api/releases.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** "24 Nov 2026" (UTC, so the server and the browser agree). */
export const formatReleaseDate = (iso: string) => dateFormat.format(new Date(iso));

/** "512 B", "1.5 KB", "12.3 MB", "1.02 GB". */
export function formatSize(bytes: number): string {
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

export const ARCH_LABELS: Record<ReleaseArch, string> = {
  x64: 'x64',
  arm64: 'ARM64',
  universal: 'Universal',
};

/** "Linux · x64"; a browser extension's "universal" arch says nothing, so it is left out. */
export function platformLabel(platform: ReleasePlatform, arch: ReleaseArch): string {
  return arch === 'universal' ? PLATFORM_LABELS[platform] : `${PLATFORM_LABELS[platform]} · ${ARCH_LABELS[arch]}`;
}
