/** Client behaviour constants (docs/client-behaviour.md). Binding; tests read them from here. */
export const BUILD_MANIFEST_PATH = '/_app/builds/latest.json';
export const VERSION_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const CHUNK_RELOAD_WINDOW_MS = 10_000;
export const CHUNK_RELOAD_STORAGE_KEY = 'hitscope:chunk-reload';
export const MAX_PRELOADS_IN_FLIGHT = 5;

export const QUERY_DEFAULTS = {
  staleTime: 5_000,
  gcTime: 5 * 60_000,
  mutationGcTime: 60_000,
} as const;

/** Slow-changing data: site settings, product catalogue, releases. */
export const SLOW_QUERY_OPTIONS = {
  staleTime: 300_000,
  refetchOnWindowFocus: false,
  refetchOnMount: true,
} as const;

export const COLOR_MODES = ['system', 'light', 'dark'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
export const COLOR_MODE_COOKIE = 'hs_color_mode';

export function parseColorMode(value: unknown): ColorMode {
  return COLOR_MODES.includes(value as ColorMode) ? (value as ColorMode) : 'system';
}

/**
 * The mode a browser takes when someone signs in on it: the one saved on their account, so it
 * follows them to a new browser. `system` is every account's default, i.e. nothing chosen yet: it
 * leaves whatever this browser was set to. Null: keep the browser's mode.
 */
export function colorModeAtSignIn(saved: ColorMode): ColorMode | null {
  return saved === 'system' ? null : saved;
}

export interface BuildManifest {
  id: string;
  timestamp: number;
}
