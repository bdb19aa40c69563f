/**
 * Group commit of `$set` updates (src/database/update-batcher.ts), on the suites' real database:
 * updates asked for at the same moment become a few unordered bulk writes, and each caller still
 * learns its own matchedCount, which its compare-and-set depends on: also when some updates of a
 * batch lose to another writer, and when an upsert meets a duplicate key.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { type Connection, type Model, Schema } from 'mongoose';
import { UpdateBatcher } from '../../src/database/update-batcher.js';
import { testDatabaseUri } from '../support/test-database.js';

interface Item {
  _id: string;
  n: number;
  paidAt: Date | null;
  code?: string;
  ref?: { id: string | null };
}

let connection: Connection;
let items: Model<Item>;
const commands: string[] = [];

beforeAll(async () => {
  connection = await mongoose.createConnection(testDatabaseUri('update_batcher'), { maxPoolSize: 1, monitorCommands: true }).asPromise();
  connection.getClient().on('commandStarted', (event) => commands.push(`${event.commandName} ${String(event.command[event.commandName])}`));
  const schema = new Schema<Item>(
    { _id: String, n: Number, paidAt: { type: Date, default: null }, code: String, ref: { id: { type: String, default: null } } },
    { versionKey: false },
  );
  schema.index({ code: 1 }, { unique: true, sparse: true });
  items = connection.model<Item>('UpdateItem', schema, 'update_items');
  await items.init();
});

afterAll(async () => {
  await connection?.close();
});

const commandsOn = (collection: string) => commands.filter((command) => command.endsWith(` ${collection}`)).length;
const seed = (prefix: string, count: number) =>
  items.insertMany(Array.from({ length: count }, (_, n) => ({ _id: `${prefix}-${n}`, n, paidAt: null })));

describe('UpdateBatcher', () => {
  it('applies 30 concurrent updates in two commands, each caller told it matched', async () => {
    await seed('burst', 30);
    const batcher = new UpdateBatcher(items);
    const before = commandsOn('update_items');
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        batcher.updateOne({ _id: `burst-${n}`, paidAt: null }, { $set: { n: n * 10, 'ref.id': `r${n}` } }),
      ),
    );
    expect(results).toEqual(Array(30).fill({ matchedCount: 1, upsertedCount: 0 }));
    expect(commandsOn('update_items') - before).toBe(2);
    const stored = await items.find({ _id: { $regex: '^burst-' } }).lean();
    expect(stored.map((item) => [item._id, item.n, item.ref?.id]).sort()).toEqual(
      Array.from({ length: 30 }, (_, n) => [`burst-${n}`, n * 10, `r${n}`]).sort(),
    );
  });

  it('tells each caller of a batch whether its own compare-and-set matched when some lose', async () => {
    await seed('cas', 6);
    const paid = new Date('2026-01-02T03:04:05Z');
    // Another writer paid cas-1 and cas-4 already: updates guarded on `paidAt: null` lose there.
    await items.updateMany({ _id: { $in: ['cas-1', 'cas-4'] } }, { $set: { paidAt: paid } });
    const batcher = new UpdateBatcher(items);
    const first = batcher.updateOne({ _id: 'cas-0', paidAt: null }, { $set: { paidAt: new Date('2026-02-01T00:00:00Z') } });
    const rest = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        batcher.updateOne({ _id: `cas-${n}`, paidAt: null }, { $set: { paidAt: new Date(Date.UTC(2026, 1, n + 1)) } }),
      ),
    );
    await expect(first).resolves.toEqual({ matchedCount: 1, upsertedCount: 0 });
    expect(rest.map((result) => result.matchedCount)).toEqual([0, 1, 1, 0, 1]);
    const stored = await items
      .find({ _id: { $regex: '^cas-' } })
      .sort({ _id: 1 })
      .lean();
    expect(stored.map((item) => item.paidAt?.toISOString())).toEqual([
      '2026-02-01T00:00:00.000Z',
      paid.toISOString(),
      '2026-02-03T00:00:00.000Z',
      '2026-02-04T00:00:00.000Z',
      paid.toISOString(),
      '2026-02-06T00:00:00.000Z',
    ]);
  });

  it('counts an upsert that inserted apart from one that matched', async () => {
    await seed('up', 2);
    const batcher = new UpdateBatcher(items);
    const first = batcher.updateOne({ _id: 'up-0' }, { $set: { n: 100 } });
    const results = await Promise.all([
      batcher.updateOne({ _id: 'up-1' }, { $set: { n: 101 } }, { upsert: true }),
      batcher.updateOne({ _id: 'up-new' }, { $set: { n: 102 } }, { upsert: true }),
    ]);
    await expect(first).resolves.toEqual({ matchedCount: 1, upsertedCount: 0 });
    expect(results).toEqual([
      { matchedCount: 1, upsertedCount: 0 },
      { matchedCount: 0, upsertedCount: 1 },
    ]);
    expect(await items.findById('up-new').lean()).toMatchObject({ n: 102 });
  });

  it('fails only the caller whose upsert meets a duplicate key; the others of its batch are applied', async () => {
    await items.create({ _id: 'dk-taken', n: 0, code: 'TAKEN' });
    await seed('dk', 3);
    const batcher = new UpdateBatcher(items);
    const first = batcher.updateOne({ _id: 'dk-0' }, { $set: { n: 100 } });
    // FerretDB stops a bulk update at its first write error and names neither the index nor what
    // was applied (docs/database.md): the batcher reads the documents and sends the rest alone.
    const results = await Promise.allSettled([
      batcher.updateOne({ _id: 'dk-1' }, { $set: { n: 101 } }),
      batcher.updateOne({ _id: 'dk-dup' }, { $set: { n: 102, code: 'TAKEN' } }, { upsert: true }),
      batcher.updateOne({ _id: 'dk-2', paidAt: null }, { $set: { n: 103 } }),
      batcher.updateOne({ _id: 'dk-gone' }, { $set: { n: 104 } }),
      batcher.updateOne({ _id: 'dk-new' }, { $set: { n: 105 } }, { upsert: true }),
    ]);
    await expect(first).resolves.toEqual({ matchedCount: 1, upsertedCount: 0 });
    expect(results[0]).toEqual({ status: 'fulfilled', value: { matchedCount: 1, upsertedCount: 0 } });
    expect(results[1].status).toBe('rejected');
    expect(((results[1] as PromiseRejectedResult).reason as { code?: number }).code).toBe(11000);
    expect(results[2]).toEqual({ status: 'fulfilled', value: { matchedCount: 1, upsertedCount: 0 } });
    expect(results[3]).toEqual({ status: 'fulfilled', value: { matchedCount: 0, upsertedCount: 0 } });
    // Inserted (after a failed bulk write, an update found in place is told it took effect).
    expect(results[4].status).toBe('fulfilled');
    const stored = await items
      .find({ _id: { $regex: '^dk-' } })
      .sort({ _id: 1 })
      .lean();
    expect(stored.map((item) => [item._id, item.n])).toEqual([
      ['dk-0', 100],
      ['dk-1', 101],
      ['dk-2', 103],
      ['dk-new', 105],
      ['dk-taken', 0],
    ]);
  });

  it('refuses what it cannot count: an operator other than $set, or a filter without a string _id', async () => {
    const batcher = new UpdateBatcher(items);
    await expect(batcher.updateOne({ _id: 'x' }, { $inc: { n: 1 } } as never)).rejects.toThrow(/\$set of one document/);
    await expect(batcher.updateOne({ n: 1 } as never, { $set: { n: 2 } })).rejects.toThrow(/\$set of one document/);
  });

  it('fails every caller of a batch whose command fails, changes nothing, and works again afterwards', async () => {
    await seed('down', 2);
    const closed = await mongoose.createConnection(testDatabaseUri('update_batcher'), { maxPoolSize: 1 }).asPromise();
    const batcher = new UpdateBatcher(closed.model<Item>('UpdateItem', items.schema, 'update_items'));
    await closed.close();
    const results = await Promise.allSettled([
      batcher.updateOne({ _id: 'down-0' }, { $set: { n: 50 } }),
      batcher.updateOne({ _id: 'down-1' }, { $set: { n: 51 } }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(
      (
        await items
          .find({ _id: { $in: ['down-0', 'down-1'] } })
          .sort({ _id: 1 })
          .lean()
      ).map((item) => item.n),
    ).toEqual([0, 1]);
    await expect(new UpdateBatcher(items).updateOne({ _id: 'down-0' }, { $set: { n: 52 } })).resolves.toEqual({
      matchedCount: 1,
      upsertedCount: 0,
    });
  });
});
