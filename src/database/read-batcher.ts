import type { Model } from 'mongoose';
import { GroupCommit } from './group-commit.js';

interface Waiting<T> {
  value: string;
  resolve: (docs: T[]) => void;
  reject: (error: unknown) => void;
}

export interface ReadBatcherOptions {
  /** The field the reads name, `_id` by default; another must be indexed (dotted paths work). */
  by?: string;
  /** The fields to read (the `by` field is always read); all by default. */
  projection?: Record<string, 1>;
  /** At most this many values per command. */
  maxBatch?: number;
}

/**
 * Group read by one field (`_id`, or an indexed one) of one collection, the reading twin of
 * InsertBatcher: the first read is sent at once, and those asked for while a read is under way go
 * together in the next `find({ [by]: { $in } })`. Nobody waits for a timer; N reads asked for at the
 * same moment cost about two commands instead of N. On the embedded database a lone read by `_id`
 * costs some 250–300 µs of its CPU and a round trip on the one connection, a read among a batch
 * 40–50 µs (docs/database.md, "The cost of a command"). The embedded database and MongoDB answer an
 * `$in` through the field's index; FerretDB on PostgreSQL (the tests' pool run) reads the collection.
 *
 * Each caller gets the documents as `find({ [by]: value }).lean()` answers them (for `_id`: the one
 * document, or null), at a moment between its call and its answer, as a lone read would; a document
 * two callers asked for in one batch is given to each as its own copy, so neither sees what the
 * other changes in it. A command that fails fails every caller of its batch.
 */
export class ReadBatcher<T extends { _id: unknown }> extends GroupCommit<Waiting<T>> {
  private readonly by: string;
  private readonly projection: Record<string, 1> | undefined;

  constructor(
    private readonly model: Model<T>,
    options: ReadBatcherOptions = {},
  ) {
    super(options.maxBatch ?? 100);
    this.by = options.by ?? '_id';
    this.projection = options.projection && { ...options.projection, [this.by]: 1 };
  }

  /** The document whose `by` field is `value` (the first, if several are), or null. */
  async findOne(value: string): Promise<T | null> {
    return (await this.findAll(value))[0] ?? null;
  }

  /** The document with this `_id`, or null (for a batcher by `_id`). */
  findById(id: string): Promise<T | null> {
    return this.findOne(id);
  }

  /** Several documents by `_id`, in the order asked for (null where there is none). */
  findByIds(ids: readonly string[]): Promise<Array<T | null>> {
    return Promise.all(ids.map((id) => this.findOne(id)));
  }

  /** Every document whose `by` field is `value`. */
  findAll(value: string): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => this.enqueue({ value, resolve, reject }));
  }

  protected async flush(batch: Waiting<T>[]): Promise<void> {
    const values = [...new Set(batch.map((entry) => entry.value))];
    let docs: T[];
    try {
      docs = await this.model
        .find({ [this.by]: values.length === 1 ? values[0] : { $in: values } }, this.projection)
        .lean<T[]>()
        .exec();
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    const byValue = new Map<string, T[]>();
    for (const doc of docs) {
      const key = String(valueAt(doc, this.by));
      byValue.set(key, [...(byValue.get(key) ?? []), doc]);
    }
    const given = new Set<string>();
    for (const entry of batch) {
      const found = byValue.get(entry.value) ?? [];
      if (given.has(entry.value)) entry.resolve(found.map((doc) => copyOf(doc)));
      else {
        given.add(entry.value);
        entry.resolve(found);
      }
    }
  }
}

function valueAt(doc: object, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null)?.[key];
  return value;
}

/** A copy of a lean document: its objects, arrays and dates copied, other values (ids, binaries) shared. */
function copyOf<V>(value: V): V {
  if (value instanceof Date) return new Date(value.getTime()) as V;
  if (Array.isArray(value)) return value.map((item: unknown) => copyOf(item)) as V;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyOf(item)])) as V;
  }
  return value;
}
