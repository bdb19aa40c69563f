import type { Model } from 'mongoose';
import { GroupCommit } from './group-commit.js';

/** What one update did, as `updateOne` counts it. */
export interface BatchedUpdate {
  /** 1 when an existing document matched the filter (and now holds the update), else 0. */
  matchedCount: number;
  /** 1 when no document matched and the update inserted one (`upsert`). */
  upsertedCount: number;
}

interface Waiting {
  id: string;
  filter: Record<string, unknown>;
  set: Record<string, unknown>;
  upsert: boolean;
  resolve: (result: BatchedUpdate) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for single-document `$set` updates of one collection, the updating twin of
 * InsertBatcher: the first update is sent at once, and those asked for while one is under way go
 * together in the next unordered `bulkWrite`. An update of a document by `_id` on the embedded
 * database costs 325–490 µs of its CPU alone and 145–225 µs in a bulk write, besides the round
 * trip and the driver's work saved (docs/database.md, "The cost of a command").
 *
 * Each caller learns its own `matchedCount` (and `upsertedCount`), which its compare-and-set
 * depends on. A bulk write answers only totals: when every update of a batch matched (or inserted),
 * the totals say so for each. When some did not (another writer came first), the batch's documents
 * are read back and an update counts as matched when its document holds every value it sets; an
 * update whose document was changed again since counts as not matched, and its caller does what it
 * does when another writer came first (reads again and decides again), which is the safe side. That
 * is why only `$set` updates of one document named by `_id` are taken: setting the same values again
 * is harmless, and they can be recognised in the document afterwards.
 *
 * A document's own write error (a duplicate key of an upsert) fails its caller; a command that fails
 * as a whole fails every caller of its batch.
 */
export class UpdateBatcher<T> extends GroupCommit<Waiting> {
  constructor(
    private readonly model: Model<T>,
    /** At most this many updates per command. */
    maxBatch = 100,
  ) {
    super(maxBatch);
  }

  updateOne(
    filter: Record<string, unknown> & { _id: string },
    update: { $set: Record<string, unknown> },
    options: { upsert?: boolean } = {},
  ): Promise<BatchedUpdate> {
    const keys = Object.keys(update);
    if (keys.length !== 1 || keys[0] !== '$set' || typeof filter._id !== 'string') {
      return Promise.reject(new Error('UpdateBatcher takes a $set of one document named by a string _id'));
    }
    return new Promise<BatchedUpdate>((resolve, reject) =>
      this.enqueue({ id: filter._id, filter, set: update.$set, upsert: options.upsert === true, resolve, reject }),
    );
  }

  protected async flush(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch;
      try {
        const result = await this.model.updateOne(only.filter, { $set: only.set }, { upsert: only.upsert }).exec();
        only.resolve({ matchedCount: result.matchedCount, upsertedCount: result.upsertedCount });
      } catch (error) {
        only.reject(error);
      }
      return;
    }
    let totals: { matched: number; upserted: Set<number> };
    try {
      const result = await this.model.bulkWrite(
        batch.map((entry) => ({ updateOne: { filter: entry.filter, update: { $set: entry.set }, upsert: entry.upsert } })) as never,
        { ordered: false },
      );
      totals = { matched: result.matchedCount, upserted: upsertedEntries(batch, result.upsertedIds) };
    } catch (error) {
      if (!hasWriteErrors(error)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      // A document's own error (a duplicate key of an upsert). FerretDB then stops at it, unordered
      // or not, and names neither its index nor what was applied: the documents say what was, and
      // the rest go one by one, each to its own answer or error.
      await this.settleOneByOne(batch);
      return;
    }
    if (totals.matched + totals.upserted.size === batch.length) {
      batch.forEach((entry, index) =>
        entry.resolve(totals.upserted.has(index) ? { matchedCount: 0, upsertedCount: 1 } : { matchedCount: 1, upsertedCount: 0 }),
      );
      return;
    }
    // Some did not match: which ones, the documents say.
    const unsure = batch.filter((_, index) => !totals.upserted.has(index));
    const docs = await this.documentsOf(unsure).catch((error: unknown) => {
      for (const entry of unsure) entry.reject(error);
      return null;
    });
    batch.forEach((entry, index) => {
      if (totals.upserted.has(index)) entry.resolve({ matchedCount: 0, upsertedCount: 1 });
      else if (docs) entry.resolve({ matchedCount: holds(docs.get(entry.id), entry.set) ? 1 : 0, upsertedCount: 0 });
    });
  }

  /** After a failed bulk write: an update its document holds counts as matched; the others are sent alone. */
  private async settleOneByOne(batch: Waiting[]): Promise<void> {
    let docs: Map<string, Record<string, unknown>>;
    try {
      docs = await this.documentsOf(batch);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const entry of batch) {
      if (holds(docs.get(entry.id), entry.set)) {
        entry.resolve({ matchedCount: 1, upsertedCount: 0 });
        continue;
      }
      try {
        const result = await this.model.updateOne(entry.filter, { $set: entry.set }, { upsert: entry.upsert }).exec();
        entry.resolve({ matchedCount: result.matchedCount, upsertedCount: result.upsertedCount });
      } catch (error) {
        entry.reject(error);
      }
    }
  }

  private async documentsOf(entries: Waiting[]): Promise<Map<string, Record<string, unknown>>> {
    const docs = await this.model
      .find({ _id: { $in: [...new Set(entries.map((entry) => entry.id))] } })
      .lean<Array<Record<string, unknown>>>()
      .exec();
    return new Map(docs.map((doc) => [String(doc._id), doc]));
  }
}

/** Whether a document holds every value of a `$set` (dotted paths followed). */
function holds(doc: Record<string, unknown> | undefined, set: Record<string, unknown>): boolean {
  if (!doc) return false;
  return Object.entries(set).every(([path, value]) => sameValue(valueAt(doc, path), value));
}

function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function sameValue(stored: unknown, wanted: unknown): boolean {
  if (wanted instanceof Date) return stored instanceof Date && stored.getTime() === wanted.getTime();
  if (wanted === undefined || wanted === null) return stored === null || stored === undefined;
  if (Array.isArray(wanted))
    return Array.isArray(stored) && stored.length === wanted.length && wanted.every((item, i) => sameValue(stored[i], item));
  if (typeof wanted === 'object') {
    if (stored === null || typeof stored !== 'object') return false;
    const entries = Object.entries(wanted as Record<string, unknown>);
    return (
      entries.length === Object.keys(stored).length &&
      entries.every(([key, item]) => sameValue((stored as Record<string, unknown>)[key], item))
    );
  }
  return stored === wanted;
}

/**
 * Which entries inserted their document. By the inserted `_id`s, not the indexes the answer gives
 * them: FerretDB numbers them among the upserts only (the second update of a batch, the first to
 * insert, is reported at index 0).
 */
function upsertedEntries(batch: Waiting[], upsertedIds: unknown): Set<number> {
  const ids = new Set(Object.values((upsertedIds as Record<string, unknown> | undefined) ?? {}).map(String));
  const entries = new Set<number>();
  batch.forEach((entry, index) => {
    if (entry.upsert && ids.delete(entry.id)) entries.add(index);
  });
  return entries;
}

function hasWriteErrors(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  return Array.isArray(writeErrors) ? writeErrors.length > 0 : Boolean(writeErrors);
}
