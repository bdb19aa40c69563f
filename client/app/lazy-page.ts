import type { ComponentType } from 'react';
import { CHUNK_RELOAD_STORAGE_KEY } from '../../lib/client-constants.js';
import { isChunkLoadError, type ReloadLog, shouldReloadForChunkError } from '../../lib/chunk-reload.js';

type PageModule = { default: ComponentType };

function readLog(): ReloadLog {
  try {
    return JSON.parse(sessionStorage.getItem(CHUNK_RELOAD_STORAGE_KEY) ?? '{}') as ReloadLog;
  } catch {
    return {};
  }
}

let pendingNavigation: () => string | null = () => null;

/** Tells the loader where a client-side navigation is going (window.location still shows the old page). */
export function trackPendingNavigation(getter: () => string | null): void {
  pendingNavigation = getter;
}

/**
 * Loads a route's code. When a chunk fails to load (typically: a new deploy removed the old hashed
 * files), the page reloads to pick up the new build, at most once per 10 s per path; a second
 * failure within the window surfaces as an error screen instead of a reload loop.
 */
export async function loadPageModule(load: () => Promise<unknown>): Promise<PageModule> {
  try {
    return (await load()) as PageModule;
  } catch (error) {
    if (typeof window === 'undefined' || !isChunkLoadError(error)) throw error;
    // The page being navigated to, not the page being left; on a first load they are the same.
    const target = pendingNavigation() ?? window.location.pathname + window.location.search;
    const decision = shouldReloadForChunkError(readLog(), new URL(target, window.location.href).pathname, Date.now());
    if (!decision.reload) throw error;
    try {
      sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, JSON.stringify(decision.log));
    } catch {
      throw error; // without storage we cannot bound the reloads: show the error
    }
    window.location.assign(target);
    return new Promise<never>(() => undefined); // the page is going away
  }
}
