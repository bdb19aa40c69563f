/** One count of a day: `[dimension, value, n]`, as a day summary stores them. */
export type DayCount = [dim: string, value: string, n: number];

/** A closed day's counts, parsed once. */
export interface ClosedDay {
  day: string;
  counts: readonly DayCount[];
  /** What the entry is charged against the byte bound: the length of the stored JSON. */
  bytes: number;
}

export interface ClosedDaysCacheLimits {
  /** At most this many days (a 366-day range and its comparison read 732); as many days known to have no summary. */
  maxEntries: number;
  /** At most this many bytes of summaries, measured as their stored JSON. */
  maxBytes: number;
  /** How long "this day has no summary" is believed (only ever said of days no day close looks at any more). */
  absentMs: number;
}

/** Room for a full 366-day range with its previous period; about 1.5 MB for a bench-sized 90-day one. */
export const CLOSED_DAYS_CACHE_LIMITS: ClosedDaysCacheLimits = { maxEntries: 800, maxBytes: 32 * 1024 * 1024, absentMs: 10 * 60_000 };

/**
 * Parsed summaries of closed days, keyed by day. A summary (`analytics_days`) is written once, by a
 * unique insert, after its day has ended and is never changed again, so a parsed copy stays true for
 * as long as the document exists; the only thing that removes one is the retention sweep, and the
 * caller asks only for days inside the retention window (see {@link AnalyticsDashboardService}).
 * A day found without a summary is remembered as such only when the caller says no day close will
 * write one any more (older than the close's look-back), and only for {@link ClosedDaysCacheLimits.absentMs};
 * any other missing day is read again next time, so a day closed later is picked up. Bounded by
 * entries and by bytes, the least recently used going first.
 */
export class ClosedDaysCache {
  /** In least-recently-used order (a Map iterates in insertion order; a hit re-inserts). */
  private readonly entries = new Map<string, ClosedDay>();
  private bytes = 0;
  /** Day → until when it is believed to have no summary. */
  private readonly absent = new Map<string, number>();

  constructor(private readonly limits: ClosedDaysCacheLimits = CLOSED_DAYS_CACHE_LIMITS) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get(day: string): ClosedDay | undefined {
    const entry = this.entries.get(day);
    if (!entry) return undefined;
    this.entries.delete(day);
    this.entries.set(day, entry);
    return entry;
  }

  /** Parses a stored summary and keeps it (unless it alone is over the byte bound); answers the parsed day. */
  add(day: string, json: string): ClosedDay {
    const entry: ClosedDay = { day, counts: JSON.parse(json) as DayCount[], bytes: json.length };
    this.absent.delete(day);
    if (entry.bytes > this.limits.maxBytes) return entry;
    this.forget(day);
    this.entries.set(day, entry);
    this.bytes += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
    }
    return entry;
  }

  /** Remembers, for a while, that `day` has no summary. */
  markAbsent(day: string, now: number): void {
    if (this.absent.size >= this.limits.maxEntries) this.absent.clear();
    this.absent.set(day, now + this.limits.absentMs);
  }

  isKnownAbsent(day: string, now: number): boolean {
    const until = this.absent.get(day);
    if (until === undefined) return false;
    if (until > now) return true;
    this.absent.delete(day);
    return false;
  }

  forget(day: string): void {
    this.absent.delete(day);
    const entry = this.entries.get(day);
    if (!entry) return;
    this.entries.delete(day);
    this.bytes -= entry.bytes;
  }

  /** Drops the days before `day` (deleted by the retention sweep, or about to be). */
  forgetBefore(day: string): void {
    for (const key of [...this.entries.keys()]) if (key < day) this.forget(key);
    for (const key of [...this.absent.keys()]) if (key < day) this.absent.delete(key);
  }
}
