import type { ReleaseArch, ReleaseFormat, ReleasePlatform } from '../api/releases.js';

export const PLATFORM_LABELS: Record<ReleasePlatform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  chrome: 'Chrome',
  firefox: 'Firefox',
  edge: 'Edge',
};

export const ARCH_LABELS: Record<ReleaseArch, string> = { x64: 'x64', arm64: 'ARM64', universal: 'Universal' };

/**
 * "Linux · x64"; a browser extension's "universal" arch says nothing, so it is left out. With a
 * format where a platform has several packages (Linux: "Linux · x64 · .deb").
 */
export function platformLabel(platform: ReleasePlatform, arch: ReleaseArch, format?: ReleaseFormat | null): string {
  const base = arch === 'universal' ? PLATFORM_LABELS[platform] : `${PLATFORM_LABELS[platform]} · ${ARCH_LABELS[arch]}`;
  return format && platform === 'linux' ? `${base} · .${format}` : base;
}
