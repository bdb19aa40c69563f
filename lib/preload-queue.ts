/**
 * Runs preload tasks with at most `limit` in flight; later ones wait their turn. A key already
 * queued, running or done is not preloaded twice.
 */
export function createPreloadQueue(limit: number) {
  const seen = new Set<string>();
  const waiting: Array<() => void> = [];
  let running = 0;
  let peak = 0;

  const next = () => {
    if (running >= limit) return;
    const start = waiting.shift();
    if (start) start();
  };

  return {
    enqueue(key: string, task: () => Promise<unknown>): boolean {
      if (seen.has(key)) return false;
      seen.add(key);
      waiting.push(() => {
        running += 1;
        peak = Math.max(peak, running);
        task()
          .catch(() => seen.delete(key)) // a failed preload may be tried again later
          .finally(() => {
            running -= 1;
            next();
          });
      });
      next();
      return true;
    },
    get inFlight() {
      return running;
    },
    get peakInFlight() {
      return peak;
    },
  };
}
