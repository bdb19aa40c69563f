import type { Model } from 'mongoose';
import { GroupCommit } from './group-commit.js';
import { isDuplicateKey } from './upsert.js';

/** What became of one document handed to an InsertBatcher. */
export type BatchedInsert = 'inserted' | 'duplicate';

interface Waiting<T> {
  doc: T;
  resolve: (result: BatchedInsert) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for inserts into one collection: the first document is written at once, and those
 * that arrive while a write is under way go together in the next `insertMany` (unordered, so a
 * duplicate fails alone). Nobody waits for a timer, and a burst of N concurrent inserts costs about
 * two database commands instead of N: on the embedded database every command is a round trip on
 * its one connection and a transaction of its own (FerretDB writes a batch in one transaction).
 *
 * Each caller learns what became of its own document: inserted, a duplicate of an `_id` already
 * stored (or of another document of the same batch), or the error that stopped it. A command that
 * fails as a whole (the database is down) fails every caller of that batch, as a lone insert would
 * fail its one caller: a document may still have reached the database, and a retry of it then
 * meets a duplicate.
 */
export class InsertBatcher<T extends object> extends GroupCommit<Waiting<T>> {
  constructor(
    private readonly model: Model<T>,
    /** At most this many documents per command (FerretDB's own batch is 100). */
    maxBatch = 100,
    /**
     * The documents are stored as given, complete (every field, in its stored type): Mongoose neither
     * casts, nor applies defaults, nor validates them. For documents built by code alone, where
     * hydrating each into a Mongoose document costs more than the insert's own work on the app's side.
     */
    private readonly lean = false,
  ) {
    super(maxBatch);
  }

  insert(doc: T): Promise<BatchedInsert> {
    return new Promise<BatchedInsert>((resolve, reject) => this.enqueue({ doc, resolve, reject }));
  }

  protected async flush(batch: Waiting<T>[]): Promise<void> {
    try {
      await this.model.insertMany(
        batch.map((entry) => entry.doc),
        { ordered: false, throwOnValidationError: true, lean: this.lean },
      );
    } catch (error) {
      // Unordered: per document, mongoose lists the document itself (stored), its validation error
      // (not sent) or the database's write error. It lists a command that failed as a whole the
      // same way (every document "stored"; the driver's bulk error then carries no write error),
      // so the list is only believed when it names a failure and the database's count agrees.
      const results = (error as { results?: unknown[] } | null)?.results;
      if (!Array.isArray(results) || results.length !== batch.length || !perDocumentFailure(error, results)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      batch.forEach((entry, index) => {
        const result = results[index];
        if (result instanceof Error) entry.reject(result);
        else if (!isWriteError(result)) entry.resolve('inserted');
        else if (isDuplicateKey(result)) entry.resolve('duplicate');
        else entry.reject(Object.assign(new Error(result.errmsg ?? 'The insert failed'), { code: result.code }));
      });
      return;
    }
    for (const entry of batch) entry.resolve('inserted');
  }
}

/**
 * Whether an insertMany error reports documents one by one: a validation error of mongoose's own,
 * or the database's write errors with as many documents stored as the list says.
 */
function perDocumentFailure(error: unknown, results: unknown[]): boolean {
  if ((error as Error).name === 'MongooseBulkWriteError') return true;
  const { writeErrors, result } = error as { writeErrors?: unknown; result?: { insertedCount?: number } };
  const failures = Array.isArray(writeErrors) ? writeErrors.length : writeErrors ? 1 : 0;
  if (failures === 0) return false;
  const stored = results.filter((item) => !(item instanceof Error) && !isWriteError(item)).length;
  return result?.insertedCount === undefined || result.insertedCount === stored;
}

/** The driver's WriteError (not exported by it): one document's failure in a bulk write. */
function isWriteError(value: unknown): value is { code?: number; errmsg?: string } {
  return typeof value === 'object' && value !== null && 'errmsg' in value && 'code' in value && 'index' in value;
}
