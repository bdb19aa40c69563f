/**
 * Group commit of inserts (src/database/insert-batcher.ts), on the suites' real database: a burst
 * of concurrent inserts becomes a few unordered insertMany commands, each caller learns what became
 * of its own document (inserted, duplicate, or its error), and a failed command fails only its own
 * callers. The webhook inbox stores every delivery through it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { type Connection, type Model, Schema } from 'mongoose';
import { InsertBatcher } from '../../src/database/insert-batcher.js';
import { testDatabaseUri } from '../support/test-database.js';

interface Item {
  _id: string;
  n: number;
  label?: string;
}

let connection: Connection;
let items: Model<Item>;
/** Every command the driver sent, by name and collection. */
const commands: string[] = [];

beforeAll(async () => {
  connection = await mongoose.createConnection(testDatabaseUri('insert_batcher'), { maxPoolSize: 1, monitorCommands: true }).asPromise();
  connection.getClient().on('commandStarted', (event) => commands.push(`${event.commandName} ${String(event.command[event.commandName])}`));
  items = connection.model<Item>(
    'BatchedItem',
    new Schema<Item>({ _id: String, n: { type: Number, required: true, min: 0 }, label: String }, { versionKey: false }),
    'batched_items',
  );
  await items.createCollection();
});

afterAll(async () => {
  await connection?.close();
});

const insertsInto = (collection: string) => commands.filter((command) => command === `insert ${collection}`).length;

describe('InsertBatcher', () => {
  it('stores a burst of 40 concurrent inserts in a few commands, each caller told “inserted”', async () => {
    const batcher = new InsertBatcher(items);
    const before = insertsInto('batched_items');
    const results = await Promise.all(Array.from({ length: 40 }, (_, n) => batcher.insert({ _id: `burst-${n}`, n })));
    expect(results).toEqual(Array(40).fill('inserted'));
    expect(await items.countDocuments({ _id: { $regex: '^burst-' } })).toBe(40);
    // The first alone, the other 39 together (they arrived while it was written).
    expect(insertsInto('batched_items') - before).toBe(2);
  });

  it('tells the caller of a duplicate _id “duplicate” and stores the rest of its batch', async () => {
    const batcher = new InsertBatcher(items);
    await batcher.insert({ _id: 'dup-stored', n: 1, label: 'first' });
    const results = await Promise.all([
      batcher.insert({ _id: 'dup-a', n: 1 }),
      batcher.insert({ _id: 'dup-stored', n: 2, label: 'second' }),
      batcher.insert({ _id: 'dup-b', n: 3 }),
      batcher.insert({ _id: 'dup-b', n: 4 }),
      batcher.insert({ _id: 'dup-c', n: 5 }),
    ]);
    expect(results).toEqual(['inserted', 'duplicate', 'inserted', 'duplicate', 'inserted']);
    const stored = await items
      .find({ _id: { $regex: '^dup-' } })
      .sort({ _id: 1 })
      .lean();
    expect(stored).toEqual([
      { _id: 'dup-a', n: 1 },
      { _id: 'dup-b', n: 3 },
      { _id: 'dup-c', n: 5 },
      { _id: 'dup-stored', n: 1, label: 'first' },
    ]);
  });

  it('lean, stores each document exactly as given and still tells a duplicate apart within a batch', async () => {
    const batcher = new InsertBatcher(items, 100, true);
    await batcher.insert({ _id: 'lean-stored', n: 1 });
    const at = new Date('2026-11-30T01:02:03.004Z');
    const results = await Promise.all([
      batcher.insert({ _id: 'lean-a', n: 1, label: 'a', at } as Item),
      batcher.insert({ _id: 'lean-stored', n: 2 }),
      batcher.insert({ _id: 'lean-b', n: 2 }),
    ]);
    expect(results).toEqual(['inserted', 'duplicate', 'inserted']);
    const stored = await connection
      .db!.collection('batched_items')
      .find({ _id: { $regex: '^lean-' } } as never)
      .sort({ _id: 1 })
      .toArray();
    // As given: a field the schema does not know is kept (Mongoose would have dropped it).
    expect(stored).toEqual([
      { _id: 'lean-a', n: 1, label: 'a', at },
      { _id: 'lean-b', n: 2 },
      { _id: 'lean-stored', n: 1 },
    ]);
  });

  it('rejects a document the schema refuses without losing the others of its batch', async () => {
    const batcher = new InsertBatcher(items);
    const first = batcher.insert({ _id: 'valid-0', n: 0 });
    const results = await Promise.allSettled([
      batcher.insert({ _id: 'valid-1', n: 1 }),
      batcher.insert({ _id: 'invalid', n: -1 }),
      batcher.insert({ _id: 'valid-2', n: 2 }),
    ]);
    await first;
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await items.countDocuments({ _id: { $in: ['valid-0', 'valid-1', 'valid-2', 'invalid'] } })).toBe(3);
  });

  it('fails every caller of a batch whose command fails, stores nothing of it, and works again afterwards', async () => {
    const closed = await mongoose.createConnection(testDatabaseUri('insert_batcher_closed'), { maxPoolSize: 1 }).asPromise();
    const model = closed.model<Item>('BatchedItem', items.schema, 'batched_items');
    const batcher = new InsertBatcher(model);
    await closed.close();
    const results = await Promise.allSettled([batcher.insert({ _id: 'down-1', n: 1 }), batcher.insert({ _id: 'down-2', n: 2 })]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await items.countDocuments({ _id: { $in: ['down-1', 'down-2'] } })).toBe(0);
    // The batcher is not stuck after a failure: a batcher on a live connection goes on.
    const live = new InsertBatcher(items);
    await expect(live.insert({ _id: 'after-failure', n: 1 })).resolves.toBe('inserted');
  });
});
