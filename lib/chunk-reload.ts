import { CHUNK_RELOAD_WINDOW_MS } from './client-constants.js';

/** Remembered reload times per path, as kept in sessionStorage. */
export type ReloadLog = Record<string, number>;

/**
 * Decides whether a failed lazy chunk may trigger a full reload of `path`: at most one reload per
 * path within the window, so a chunk that keeps failing (a deploy gone wrong) cannot loop.
 */
export function shouldReloadForChunkError(
  log: ReloadLog,
  path: string,
  now: number,
  windowMs = CHUNK_RELOAD_WINDOW_MS,
): { reload: boolean; log: ReloadLog } {
  const last = log[path];
  if (last !== undefined && now - last < windowMs) return { reload: false, log };
  const pruned: ReloadLog = {};
  for (const [key, at] of Object.entries(log)) if (now - at < windowMs) pruned[key] = at;
  return { reload: true, log: { ...pruned, [path]: now } };
}

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  );
}
