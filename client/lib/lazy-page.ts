import type { ComponentType } from 'react';
import {
  CHUNK_RELOAD_STORAGE_KEY,
} from '../../lib/client-constants.js';
import { isChunkLoadError, type ReloadLog, shouldReloadForChunkError } from '../../lib/chunk-reload.js';

type PageModule = { default: ComponentType };

function readLog(): ReloadLog {
  try {
    return JSON.parse(sessionStorage.getItem(CHUNK_RELOAD_STORAGE_KEY) ?? '{}') as ReloadLog;
  } catch {
    return {};
  }
}

/**
 * Loads a route's code. When a chunk fails to load (typically: a new deploy removed the old hashed
 * files), the page reloads to pick up the new build, at most once per 10 s per path; a second
 * failure within the window surfaces as an error screen instead of a reload loop.
 */
export async function loadPageModule(load: () => Promise<unknown>, path?: string): Promise<PageModule> {
  try {
    return (await load()) as PageModule;
  } catch (error) {
    if (typeof window === 'undefined' || !isChunkLoadError(error)) throw error;
    const target = path ?? window.location.pathname;
    const decision = shouldReloadForChunkError(readLog(), target, Date.now());
    if (!decision.reload) throw error;
    try {
      sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, JSON.stringify(decision.log));
    } catch {
      throw error; // without storage we cannot bound the reloads: show the error
    }
    window.location.assign(target + (path ? '' : window.location.search));
    return new Promise<never>(() => undefined); // the page is going away
  }
}
