import { isChunkLoadError, shouldReloadForChunkError } from './chunk-reload.js';
import { CHUNK_RELOAD_WINDOW_MS } from './client-constants.js';

describe('chunk reload guard', () => {
  it('reloads once per path within 10 000 ms', () => {
    const first = shouldReloadForChunkError({}, '/admin', 1_000);
    expect(first.reload).toBe(true);
    expect(shouldReloadForChunkError(first.log, '/admin', 1_000 + CHUNK_RELOAD_WINDOW_MS - 1).reload).toBe(false);
    expect(shouldReloadForChunkError(first.log, '/admin', 1_000 + CHUNK_RELOAD_WINDOW_MS).reload).toBe(true);
    expect(CHUNK_RELOAD_WINDOW_MS).toBe(10_000);
  });

  it('counts each path separately and forgets old entries', () => {
    const first = shouldReloadForChunkError({ '/old': 0 }, '/a', 50_000);
    expect(first.log).toEqual({ '/a': 50_000 });
    expect(shouldReloadForChunkError(first.log, '/b', 50_001).reload).toBe(true);
  });

  it('recognises the dynamic import failures of Chromium, Firefox and Safari', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});
