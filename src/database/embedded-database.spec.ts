import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedDatabaseError, startEmbeddedDatabase } from './embedded-database.js';

const quiet = () => undefined;

describe('embedded database launcher', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hitscope-launcher-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  /** A database of its own in dataDir, with one client connection, stopped afterwards. */
  const withDatabase = async (use: (client: MongoClient) => Promise<void>) => {
    const database = await startEmbeddedDatabase({ dataDir, log: quiet });
    const client = await MongoClient.connect(database.uri, { maxPoolSize: 1 });
    try {
      await use(client);
    } finally {
      await client.close();
      await database.stop();
    }
  };

  it('starts FerretDB on loopback, keeps data across restarts, and stops', async () => {
    const first = await startEmbeddedDatabase({ dataDir, log: quiet });
    expect(first.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    const client = await MongoClient.connect(first.uri);
    await client.db('launcher').collection('notes').insertOne({ text: 'survives a restart' });
    await client.close();
    await first.stop();
    expect(() => process.kill(first.pid, 0)).toThrow();

    const second = await startEmbeddedDatabase({ dataDir, log: quiet });
    const again = await MongoClient.connect(second.uri);
    try {
      expect(
        await again
          .db('launcher')
          .collection('notes')
          .findOne({}, { projection: { _id: 0 } }),
      ).toEqual({ text: 'survives a restart' });
    } finally {
      await again.close();
      await second.stop();
    }
  }, 60_000);

  // SQLite starts its write-ahead log again only once a checkpoint copied all of it, which a
  // reader on the log prevents. FerretDB's update and findAndModify kept their read open while they
  // wrote (the launcher's patch closes it first): the log then grew by every commit, without end
  // (about 40 MB here), and every commit past 1000 pages ran a checkpoint of its own.
  it(
    'keeps the write-ahead log bounded under a steady stream of updates',
    () =>
      withDatabase(async (client) => {
        const counters = client.db('launcher').collection<{ _id: string; n: number; note: string }>('counters');
        const ids = Array.from({ length: 200 }, (_, index) => `counter-${index}`);
        await counters.insertMany(ids.map((_id) => ({ _id, n: 0, note: 'x'.repeat(400) })));
        for (let round = 1; round <= 15; round += 1) {
          for (const _id of ids) {
            if (round % 5 === 0) await counters.findOneAndUpdate({ _id }, { $set: { n: round } });
            else await counters.updateOne({ _id }, { $set: { n: round } });
          }
        }
        expect(await counters.countDocuments({ n: 15 })).toBe(200);
        // 3 000 commits of a few pages each; SQLite checkpoints at 1000 pages (4 MiB) and then
        // starts the log again, so the file stays about that size.
        const log = await stat(join(dataDir, 'db', 'launcher.sqlite-wal'));
        expect(log.size).toBeLessThan(8 * 1024 * 1024);
      }),
    60_000,
  );

  // The launcher's FerretDB keeps each connection's prepared SQL statements (_ferretdb/
  // sqlite_stmt_cache.go): a statement kept from before a collection was dropped and made again
  // must read the new one.
  it(
    'answers the same queries right after a collection is dropped and made again',
    () =>
      withDatabase(async (client) => {
        const notes = client.db('launcher').collection<{ _id: string; tag: string }>('notes');
        const read = async () => (await notes.find({ tag: 'a' }).sort({ _id: 1 }).toArray()).map((note) => note._id);
        for (const [round, ids] of [
          [1, ['n1', 'n2']],
          [2, ['m1']],
          [3, ['k1', 'k2', 'k3']],
        ] as const) {
          await notes.insertMany(ids.map((_id) => ({ _id, tag: 'a' })));
          await notes.insertOne({ _id: `other-${round}`, tag: 'b' });
          expect(await read()).toEqual(ids);
          expect(await notes.countDocuments({ _id: ids[0] })).toBe(1);
          await notes.drop();
          expect(await read()).toEqual([]);
        }
      }),
    60_000,
  );

  // SQLite binds at most 32 766 values to a statement, and FerretDB deleted the documents a delete
  // matched with one `IN (…)` of all their ids: a deleteMany of more failed (the launcher's patch
  // deletes in chunks, in one transaction).
  it(
    'deletes 40 000 documents in one deleteMany',
    () =>
      withDatabase(async (client) => {
        const slots = client.db('launcher').collection<{ _id: string; window: number }>('slots');
        for (let start = 0; start < 40_000; start += 10_000) {
          await slots.insertMany(
            Array.from({ length: 10_000 }, (_, index) => ({ _id: `slot-${start + index}`, window: start + index < 39_990 ? 1 : 2 })),
          );
        }
        expect((await slots.deleteMany({ window: 1 })).deletedCount).toBe(39_990);
        expect(await slots.countDocuments({})).toBe(10);
      }),
    120_000,
  );

  it('explains a binary that cannot be run', async () => {
    const start = startEmbeddedDatabase({ dataDir, binary: join(dataDir, 'missing-binary'), log: quiet });
    await expect(start).rejects.toThrow(EmbeddedDatabaseError);
    await expect(startEmbeddedDatabase({ dataDir, binary: join(dataDir, 'missing-binary'), log: quiet })).rejects.toThrow(
      /^Cannot run the embedded database .*missing-binary: spawn .* ENOENT$/,
    );
  });

  it('explains a database that exits before it is ready', async () => {
    await expect(startEmbeddedDatabase({ dataDir, binary: '/bin/false', log: quiet })).rejects.toThrow(
      'The embedded database exited with code 1 before it was ready',
    );
  });
});
