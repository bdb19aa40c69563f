/**
 * The queue the batchers share (InsertBatcher, ReadBatcher, UpdateBatcher): the first entry is
 * flushed at once, and the entries that arrive while a flush is under way wait for it and go
 * together in the next one, at most `maxBatch` at a time. Nobody waits for a timer: a lone entry
 * costs what it costs alone, and a burst of N costs about two commands instead of N. On the embedded
 * database every command is a round trip on its one connection, and while one is under way the
 * others queue anyway, which is when entries gather.
 */
export abstract class GroupCommit<E> {
  private readonly waiting: E[] = [];
  private flushing = false;

  protected constructor(private readonly maxBatch: number) {}

  protected enqueue(entry: E): void {
    this.waiting.push(entry);
    if (!this.flushing) void this.flushAll();
  }

  /** Settles every entry of the batch (each with its own answer or error); never throws. */
  protected abstract flush(batch: E[]): Promise<void>;

  private async flushAll(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) await this.flush(this.waiting.splice(0, this.maxBatch));
    } finally {
      this.flushing = false;
    }
  }
}
