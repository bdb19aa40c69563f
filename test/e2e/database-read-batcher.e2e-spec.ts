/**
 * Group read by `_id` (src/database/read-batcher.ts), on the suites' real database: reads asked
 * for at the same moment become a few `$in` finds, each caller gets its own document (or null) as
 * `findById(...).lean()` would answer it, and a failed command fails only its own callers. The
 * webhook reducer reads orders, subscriptions and licences through it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { type Connection, type Model, Schema } from 'mongoose';
import { ReadBatcher } from '../../src/database/read-batcher.js';
import { testDatabaseUri } from '../support/test-database.js';

interface Item {
  _id: string;
  n: number;
  at: Date;
  tags: string[];
  nested: { label: string };
  group: string;
}

let connection: Connection;
let items: Model<Item>;
/** Every command the driver sent, by name and collection. */
const commands: string[] = [];

beforeAll(async () => {
  connection = await mongoose.createConnection(testDatabaseUri('read_batcher'), { maxPoolSize: 1, monitorCommands: true }).asPromise();
  connection.getClient().on('commandStarted', (event) => commands.push(`${event.commandName} ${String(event.command[event.commandName])}`));
  items = connection.model<Item>(
    'ReadItem',
    new Schema<Item>(
      { _id: String, n: Number, at: Date, tags: [String], nested: { label: String }, group: { type: String, index: true } },
      { versionKey: false },
    ),
    'read_items',
  );
  await items.insertMany(
    Array.from({ length: 60 }, (_, n) => ({
      _id: `item-${n}`,
      n,
      at: new Date(Date.UTC(2026, 0, 1 + n)),
      tags: [`t${n}`],
      nested: { label: `L${n}` },
      group: `g${n % 5}`,
    })),
  );
});

afterAll(async () => {
  await connection?.close();
});

const findsIn = (collection: string) => commands.filter((command) => command === `find ${collection}`).length;

describe('ReadBatcher', () => {
  it('answers 40 concurrent reads by _id in two commands, each with the document findById would give', async () => {
    const batcher = new ReadBatcher(items);
    const before = findsIn('read_items');
    const ids = Array.from({ length: 40 }, (_, n) => `item-${(n * 7) % 60}`);
    const docs = await Promise.all(ids.map((id) => batcher.findById(id)));
    // The first alone, the other 39 together (asked for while the first was read).
    expect(findsIn('read_items') - before).toBe(2);
    const alone = await Promise.all(ids.map((id) => items.findById(id).lean<Item>().exec()));
    expect(docs).toEqual(alone);
    expect(docs[3]?.at).toBeInstanceOf(Date);
  });

  it('answers null for an id that is not stored, beside the ones that are', async () => {
    const batcher = new ReadBatcher(items);
    const docs = await batcher.findByIds(['item-1', 'missing', 'item-2', 'item-1']);
    expect(docs.map((doc) => doc?._id ?? null)).toEqual(['item-1', null, 'item-2', 'item-1']);
  });

  it('gives two callers of one document each their own copy', async () => {
    const batcher = new ReadBatcher(items);
    const first = batcher.findById('item-0');
    const [a, b] = await Promise.all([batcher.findById('item-5'), batcher.findById('item-5')]);
    await first;
    expect(a).toEqual(b);
    a!.tags.push('changed');
    a!.nested.label = 'changed';
    a!.at.setUTCFullYear(1999);
    expect(b).toEqual({ _id: 'item-5', n: 5, at: new Date(Date.UTC(2026, 0, 6)), tags: ['t5'], nested: { label: 'L5' }, group: 'g0' });
  });

  it('reads every document of a value of another field, with the fields asked for, in one command for many values', async () => {
    const batcher = new ReadBatcher(items, { by: 'group', projection: { n: 1 } });
    const before = findsIn('read_items');
    const first = batcher.findAll('g1');
    const [g2, g3, none, g2again] = await Promise.all(['g2', 'g3', 'g9', 'g2'].map((group) => batcher.findAll(group)));
    expect(findsIn('read_items') - before).toBe(2);
    expect((await first).map((item) => item.n).sort((a, b) => a - b)).toEqual([1, 6, 11, 16, 21, 26, 31, 36, 41, 46, 51, 56]);
    expect(g2.map((item) => item.n).sort((a, b) => a - b)).toEqual([2, 7, 12, 17, 22, 27, 32, 37, 42, 47, 52, 57]);
    expect(g3).toHaveLength(12);
    expect(none).toEqual([]);
    expect(g2again).toEqual(g2);
    // Only the fields asked for, and the one the batch is grouped by.
    expect(Object.keys(g3[0]).sort()).toEqual(['_id', 'group', 'n']);
  });

  it('reads what was written before it was asked for', async () => {
    const batcher = new ReadBatcher(items);
    await items.updateOne({ _id: 'item-9' }, { $set: { n: 900 } }).exec();
    expect((await batcher.findById('item-9'))?.n).toBe(900);
    await items.updateOne({ _id: 'item-9' }, { $set: { n: 9 } }).exec();
    expect((await batcher.findById('item-9'))?.n).toBe(9);
  });

  it('fails every caller of a batch whose command fails, and works again afterwards', async () => {
    const closed = await mongoose.createConnection(testDatabaseUri('read_batcher'), { maxPoolSize: 1 }).asPromise();
    const model = closed.model<Item>('ReadItem', items.schema, 'read_items');
    const batcher = new ReadBatcher(model);
    await closed.close();
    const results = await Promise.allSettled([batcher.findById('item-1'), batcher.findById('item-2')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    // Not stuck after a failure: a batcher on a live connection goes on.
    await expect(new ReadBatcher(items).findById('item-3')).resolves.toMatchObject({ _id: 'item-3', n: 3 });
  });
});
