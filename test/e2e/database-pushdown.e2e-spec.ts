/**
 * The embedded database's filter pushdown (database-launcher/_ferretdb/sqlite_pushdown.go): FerretDB
 * on SQLite hands SQLite the equality conditions on top-level string and ObjectId fields, where it
 * used to read and decode every document of the collection. A pushed-down condition may only ever
 * let too many rows through (FerretDB filters them again), never too few: these are the cases where
 * a careless WHERE clause would lose documents (arrays holding the value, strings JSON escapes,
 * ObjectIds beside their hex strings, several conditions, `$in`, updates and deletes). Run on every
 * engine of the suites: the answers are MongoDB's, whichever engine gives them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Collection, MongoClient, ObjectId } from 'mongodb';
import { identifyDatabaseServer } from '../../src/database/database-server.js';
import { testDatabaseUri } from '../support/test-database.js';

const STRINGS = ['plain', 'é<&>😀', 'a"b', 'back\\slash', 'tab\tx', 'ünï', '中文', '', ' spaced ', 'line\u2028separator', 'a@b.example'];

let client: MongoClient;
let collection: Collection<{ _id: string; k?: unknown; n?: number; u?: number; s?: unknown }>;
let server: 'ferretdb' | 'mongodb';
const oid = new ObjectId();

beforeAll(async () => {
  const uri = testDatabaseUri('pushdown');
  client = await MongoClient.connect(uri, { maxPoolSize: 1 });
  server = await identifyDatabaseServer(uri);
  collection = client.db().collection('pushdown_cases');
  await collection.deleteMany({});
  await collection.createIndex({ k: 1 });
  await collection.createIndex({ 's.sub': 1 });
  await collection.insertMany([
    ...STRINGS.flatMap((value, index) => [
      { _id: `s${index}`, k: value, n: index },
      { _id: `a${index}`, k: ['other', value], n: index },
    ]),
    { _id: 'oid', k: oid },
    { _id: 'hex', k: oid.toHexString() },
    { _id: 'missing' },
    { _id: 'null', k: null },
    { _id: 'number', k: 5 },
    { _id: 'nested', k: { inner: 'plain' } },
    { _id: 'd-doc', s: { sub: 'x1' } },
    { _id: 'd-array-of-docs', s: [{ sub: 'y' }, { sub: 'x1' }] },
    { _id: 'd-array-value', s: { sub: ['z', 'x1'] } },
    { _id: 'd-other', s: { sub: 'other' } },
    { _id: 'd-deep', s: { deep: { er: 'x1' } } },
  ]);
});

afterAll(async () => {
  await client?.close();
});

const ids = async (filter: object) => (await collection.find(filter).toArray()).map((document) => document._id).sort();

describe('equality filters on the embedded database', () => {
  it.each(STRINGS.map((value, index) => [JSON.stringify(value), value, index] as const))(
    'finds %s as a value and inside an array',
    async (_, value, index) => {
      expect(await ids({ k: value })).toEqual([`a${index}`, `s${index}`]);
      expect(await collection.countDocuments({ k: value })).toBe(2);
    },
  );

  it('tells an ObjectId from its hex string, both ways', async () => {
    expect(await ids({ k: oid })).toEqual(['oid']);
    expect(await ids({ k: oid.toHexString() })).toEqual(['hex']);
  });

  it('answers $in, $eq, several conditions and _id with another field', async () => {
    expect(await ids({ k: { $in: ['plain', '中文'] } })).toEqual(['a0', 'a6', 's0', 's6']);
    expect(await ids({ k: { $eq: 'ünï' } })).toEqual(['a5', 's5']);
    expect(await ids({ k: 'plain', n: 0 })).toEqual(['a0', 's0']);
    expect(await ids({ _id: { $in: ['s1', 'a2', 'absent'] } })).toEqual(['a2', 's1']);
    expect(await ids({ _id: 's3', k: 'back\\slash' })).toEqual(['s3']);
    expect(await ids({ _id: 's3', k: 'plain' })).toEqual([]);
    expect(await ids({ k: 'other' })).toEqual(STRINGS.map((_, index) => `a${index}`).sort());
  });

  it('follows dotted paths through documents and arrays of them', async () => {
    expect(await ids({ 's.sub': 'x1' })).toEqual(['d-array-of-docs', 'd-array-value', 'd-doc']);
    expect(await ids({ 's.sub': 'y' })).toEqual(['d-array-of-docs']);
    expect(await ids({ 's.deep.er': 'x1' })).toEqual(['d-deep']);
    expect(await ids({ 's.sub': { $in: ['other', 'z'] } })).toEqual(['d-array-value', 'd-other']);
  });

  it('answers $or, whether or not each branch can be handed to SQL', async () => {
    expect(await ids({ $or: [{ k: 'plain' }, { 's.sub': 'y' }] })).toEqual(['a0', 'd-array-of-docs', 's0']);
    expect(await ids({ $or: [{ k: '中文' }, { n: { $gte: STRINGS.length - 1 } }] })).toEqual(
      [`a${STRINGS.length - 1}`, 'a6', `s${STRINGS.length - 1}`, 's6'].sort(),
    );
    expect(await ids({ n: 0, $or: [{ k: 'plain' }, { k: 'nowhere' }] })).toEqual(['a0', 's0']);
    expect(await ids({ $or: [{ _id: 'oid' }, { $or: [{ k: 'ünï' }, { 's.deep.er': 'x1' }] }] })).toEqual(['a5', 'd-deep', 'oid', 's5']);
  });

  it('leaves what it does not push down to FerretDB, with the same answers: null, numbers, a path into a document', async () => {
    expect(await ids({ k: null })).toEqual(['d-array-of-docs', 'd-array-value', 'd-deep', 'd-doc', 'd-other', 'missing', 'null']);
    expect(await ids({ k: 5 })).toEqual(['number']);
    expect(await ids({ 'k.inner': 'plain' })).toEqual(['nested']);
    expect(await ids({ k: 'nowhere' })).toEqual([]);
  });

  it('updates and deletes exactly the matching documents', async () => {
    expect((await collection.updateMany({ k: '中文' }, { $set: { u: 1 } })).modifiedCount).toBe(2);
    expect(await ids({ u: 1 })).toEqual(['a6', 's6']);
    expect((await collection.deleteMany({ k: 'a@b.example' })).deletedCount).toBe(2);
    expect(await ids({ n: STRINGS.indexOf('a@b.example') })).toEqual([]);
    expect(await collection.aggregate([{ $match: { k: 'plain' } }, { $count: 'n' }]).toArray()).toEqual([{ n: 2 }]);
  });

  it('hands the equality to the storage: FerretDB’s explain says it pushed the filter down, MongoDB’s plan uses the index', async () => {
    const explained = (await collection.find({ k: 'plain' }).explain()) as {
      filterPushdown?: boolean;
      queryPlanner: { winningPlan?: unknown };
    };
    // FerretDB 1.24's SQLite backend alone pushed down a lone `_id` equality only (false here).
    if (server === 'ferretdb') expect(explained.filterPushdown).toBe(true);
    else expect(JSON.stringify(explained.queryPlanner.winningPlan)).toContain('IXSCAN');
    if (server === 'ferretdb' && process.env.HITSCOPE_TEST_ENGINE !== 'postgresql') {
      // The embedded default also hands over dotted paths and $or (FerretDB on PostgreSQL drops dotted
      // keys), and SQLite answers each with the launcher's index of the very expression the pushdown
      // compares (database-launcher/lookup_expression.go), made within a second of the collection's
      // index. The find first: an EXPLAIN alone does not reread a schema that changed meanwhile.
      for (const filter of [{ k: 'plain' }, { 's.sub': 'x1' }, { $or: [{ k: 'plain' }, { 's.sub': 'y' }] }]) {
        const deadline = Date.now() + 10_000;
        let seen: { filter: object; pushed?: boolean; index: boolean };
        for (;;) {
          await collection.find(filter).toArray();
          const plan = (await collection.find(filter).explain()) as { filterPushdown?: boolean; queryPlanner: unknown };
          seen = { filter, pushed: plan.filterPushdown, index: /USING INDEX hitscope_lookup_/.test(JSON.stringify(plan.queryPlanner)) };
          if (seen.index || Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(seen).toEqual({ filter, pushed: true, index: true });
      }
    }
  });
});
