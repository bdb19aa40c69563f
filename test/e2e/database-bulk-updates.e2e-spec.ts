/**
 * Bulk updates by `_id` on the suites' real database. On the embedded database (FerretDB on SQLite)
 * the statements of such a command share one SQLite transaction (database-launcher/_ferretdb/
 * fsql_command_tx.go): each statement reads its document inside that transaction, and the
 * transaction takes the write lock when it begins, so another connection's writes meanwhile neither
 * hide a statement's earlier writes nor make the command fail. These are what the app's grouped
 * updates (src/database/update-batcher.ts) rely on, whatever the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { type Connection, type Model, Schema } from 'mongoose';
import { testDatabaseUri } from '../support/test-database.js';

interface Item {
  _id: string;
  n: number;
  a?: string;
  b?: string;
  code?: string;
}

const uri = testDatabaseUri('bulk_updates');
let updates: Connection;
let others: Connection;
let items: Model<Item>;
let itemsElsewhere: Model<Item>;

beforeAll(async () => {
  const schema = new Schema<Item>({ _id: String, n: Number, a: String, b: String, code: String }, { versionKey: false });
  schema.index({ code: 1 }, { unique: true, sparse: true });
  // Two connections, as the app has (updates on one, reads and inserts beside it).
  updates = await mongoose.createConnection(uri, { maxPoolSize: 1 }).asPromise();
  others = await mongoose.createConnection(uri, { maxPoolSize: 1, autoIndex: false }).asPromise();
  items = updates.model<Item>('BulkItem', schema, 'bulk_items');
  itemsElsewhere = others.model<Item>('BulkItem', schema, 'bulk_items');
  await items.init();
});

afterAll(async () => {
  await updates?.close();
  await others?.close();
});

const setOne = (_id: string, set: Partial<Item>) => ({ updateOne: { filter: { _id }, update: { $set: set } } });

describe('a bulk write of updates by _id', () => {
  it('keeps every statement’s change when several change the same document', async () => {
    await items.insertMany([
      { _id: 'twice', n: 0 },
      { _id: 'beside', n: 0 },
    ]);
    const result = await items.bulkWrite(
      [
        setOne('twice', { a: 'first' }),
        setOne('beside', { a: 'x' }),
        setOne('twice', { b: 'second' }),
        { updateOne: { filter: { _id: 'twice' }, update: { $inc: { n: 1 } } } },
        { updateOne: { filter: { _id: 'twice' }, update: { $inc: { n: 1 } } } },
      ],
      { ordered: true },
    );
    expect(result.matchedCount).toBe(5);
    expect(await items.findById('twice').lean()).toEqual({ _id: 'twice', n: 2, a: 'first', b: 'second' });
    expect(await items.findById('beside').lean()).toEqual({ _id: 'beside', n: 0, a: 'x' });
  });

  it('applies the statements before one that fails and reports the failure, whatever the order', async () => {
    await items.insertMany([
      { _id: 'before', n: 0 },
      { _id: 'taken', n: 0, code: 'TAKEN' },
      { _id: 'clash', n: 0 },
    ]);
    const failure = await items
      .bulkWrite([setOne('before', { a: 'kept' }), setOne('clash', { code: 'TAKEN' })], { ordered: true })
      .then(() => null)
      .catch((error: { code?: number; writeErrors?: unknown[] }) => error);
    expect(failure).not.toBeNull();
    expect(await items.findById('before').lean()).toMatchObject({ a: 'kept' });
    expect(await items.findById('clash').lean()).toEqual({ _id: 'clash', n: 0 });
    // Sent again without the clash, it goes through (nothing was left half-done or locked).
    await items.bulkWrite([setOne('before', { b: 'again' }), setOne('clash', { code: 'FREE' })]);
    expect(await items.findById('clash').lean()).toMatchObject({ code: 'FREE' });
    expect(await items.findById('before').lean()).toMatchObject({ a: 'kept', b: 'again' });
  });

  it('runs while another connection inserts and reads: every write lands and none is refused', async () => {
    const ids = Array.from({ length: 25 }, (_, n) => `busy-${n}`);
    await items.insertMany(ids.map((_id) => ({ _id, n: 0 })));
    const rounds = 200;
    const bulks = (async () => {
      for (let round = 0; round < rounds; round += 1) {
        const result = await items.bulkWrite(
          ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $inc: { n: 1 }, $set: { a: `round ${round}` } } } })),
          { ordered: false },
        );
        expect(result.matchedCount).toBe(ids.length);
      }
    })();
    const beside = (async () => {
      for (let round = 0; round < rounds; round += 1) {
        await itemsElsewhere.insertMany(Array.from({ length: 5 }, (_, n) => ({ _id: `inserted-${round}-${n}`, n })));
        const id = ids[round % ids.length];
        expect((await itemsElsewhere.findById(id).lean())?._id).toBe(id);
      }
    })();
    await Promise.all([bulks, beside]);
    const stored = await items.find({ _id: { $in: ids } }).lean();
    expect(stored.map((item) => [item.n, item.a])).toEqual(ids.map(() => [rounds, `round ${rounds - 1}`]));
    expect(await items.countDocuments({ _id: { $regex: '^inserted-' } })).toBe(rounds * 5);
  });
});
