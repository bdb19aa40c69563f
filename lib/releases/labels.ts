import type { ReleaseArch, ReleasePlatform } from '../api/releases.js';

export const PLATFORM_LABELS: Record<ReleasePlatform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  chrome: 'Chrome',
  firefox: 'Firefox',
  edge: 'Edge',
};

export const ARCH_LABELS: Record<ReleaseArch, string> = { x64: 'x64', arm64: 'ARM64', universal: 'Universal' };

/** "Linux · x64"; a browser extension's "universal" arch says nothing, so it is left out. */
export function platformLabel(platform: ReleasePlatform, arch: ReleaseArch): string {
  return arch === 'universal' ? PLATFORM_LABELS[platform] : `${PLATFORM_LABELS[platform]} · ${ARCH_LABELS[arch]}`;
}
