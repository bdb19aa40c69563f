import type { ColorMode } from '../../../../lib/client-constants.js';

/**
 * The extension's settings, in `chrome.storage.local` (never `sync`: the licence's device id and
 * seat must stay on this machine, and so does everything else here).
 */
export interface Settings {
  /** The Hitscope site licences are checked against (a self-hosted one too); '' until set. */
  siteUrl: string;
  colorMode: ColorMode;
}

/** A site URL stamped into the build (HITSCOPE_SITE_URL), else none: the person enters theirs. */
declare const __HITSCOPE_SITE_URL__: string;
export const DEFAULT_SETTINGS: Settings = { siteUrl: __HITSCOPE_SITE_URL__, colorMode: 'system' };

const KEY = 'settings';

export async function loadSettings(): Promise<Settings> {
  const stored = (await chrome.storage.local.get(KEY))[KEY] as Partial<Settings> | undefined;
  return { ...DEFAULT_SETTINGS, ...(stored ?? {}) };
}

export async function saveSettings(change: Partial<Settings>): Promise<Settings> {
  const next = { ...(await loadSettings()), ...change };
  await chrome.storage.local.set({ [KEY]: next });
  return next;
}

/** Calls `listener` with the new settings whenever any extension page or the worker saves them. */
export function onSettingsChanged(listener: (settings: Settings) => void): () => void {
  const handle = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
    if (area === 'local' && changes[KEY]) listener({ ...DEFAULT_SETTINGS, ...(changes[KEY].newValue as Partial<Settings>) });
  };
  chrome.storage.onChanged.addListener(handle);
  return () => chrome.storage.onChanged.removeListener(handle);
}

/**
 * `https://hitscope.example.com` from what a person typed (a path, a trailing slash and spaces are
 * dropped); null when it is not an http(s) URL. Plain http only for loopback: a licence key must
 * not cross a network in clear text.
 */
export function normaliseSiteUrl(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return null;
  return url.origin;
}
