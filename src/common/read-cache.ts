/**
 * A small in-process read cache for hot lookups: entries live `ttlMs`, the oldest go first beyond
 * `maxEntries`, and concurrent misses of one key share a single load (no stampede of identical
 * database reads). Writers call `forget` for what they changed; a load that was already under way
 * when a key was forgotten does not store its (possibly older) result.
 *
 * It is per process: other instances see a change after at most `ttlMs`. Callers choose it only where
 * that staleness is harmless (see docs/licensing.md "Caching").
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<V | null>>();
  /** Bumped by every forget: a load that started before it must not store its result. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value of `key`, or `load()`'s (stored unless it is `null`: absence is not cached). */
  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.value;
    if (entry) this.entries.delete(key);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loaded = load().then((value) => {
      if (value !== null && generation === this.generation) this.store(key, value);
      return value;
    });
    const shared: Promise<V | null> = loaded.finally(() => {
      if (this.loading.get(key) === shared) this.loading.delete(key);
    });
    this.loading.set(key, shared);
    return shared;
  }

  /** The live cached value of `key`, without loading it. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > this.now() ? entry.value : undefined;
  }

  /** Stores a value the caller just learned (for a key whose value it does not load through `get`). */
  remember(key: string, value: V): void {
    this.store(key, value);
  }

  /** Replaces a cached value with one the caller just wrote (no-op when the key is not cached). */
  update(key: string, value: V): void {
    const entry = this.entries.get(key);
    if (entry) entry.value = value;
  }

  forget(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /**
   * Forgets every stored value `matches` (for a write that names its rows by something other than the
   * key) and every load under way, whose values cannot be checked yet.
   */
  forgetWhere(matches: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
    this.loading.clear();
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
