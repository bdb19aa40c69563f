/**
 * Concurrent updates and the app's database connection. FerretDB runs an update as a read and a
 * separate write, so several connections lose concurrent updates of one document; one connection
 * serialises them. The app takes one connection to FerretDB unless MONGODB_URI asks for a pool (the
 * pool run of the suites does: `npm run test:server:pool`), and its own counters and limits do not
 * depend on either: they claim slots by unique insert, which is exact on every engine and pool.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getConnectionToken } from '@nestjs/mongoose';
import { MongoClient } from 'mongodb';
import type { Connection } from 'mongoose';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { identifyDatabaseServer, uriMaxPoolSize } from '../../src/database/database-server.js';
import { RateLimitService } from '../../src/rate-limit/rate-limit.service.js';
import { testDatabaseUri } from '../support/test-database.js';

let running: RunningApp;
let connection: Connection;
let server: 'mongodb' | 'ferretdb';

beforeAll(async () => {
  running = await createApp(loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('concurrency'), LOG_LEVEL: 'error', PORT: '0' }));
  connection = running.app.get<Connection>(getConnectionToken());
  server = await identifyDatabaseServer(running.mongodbUri);
});

afterAll(async () => {
  await running?.close();
});

/** What the embedded default talks to FerretDB over (one connection), or the app's own pool on MongoDB. */
async function withDefaultConnection<T>(work: (db: ReturnType<MongoClient['db']>) => Promise<T>): Promise<T> {
  if (server === 'mongodb') return work(connection.getClient().db(connection.db!.databaseName));
  const client = await MongoClient.connect(running.mongodbUri, { maxPoolSize: 1 });
  try {
    return await work(client.db());
  } finally {
    await client.close();
  }
}

describe('the app’s database connection', () => {
  it('is one connection on FerretDB and the driver’s pool on MongoDB, as the server itself says, unless MONGODB_URI names a pool', () => {
    const fromUri = uriMaxPoolSize(running.mongodbUri);
    expect(connection.getClient().options.maxPoolSize).toBe(fromUri ?? (server === 'ferretdb' ? 1 : 100));
  });

  it('over the embedded default’s one connection (or MongoDB’s pool), applies 200 concurrent $inc on one document exactly', async () => {
    const found = await withDefaultConnection(async (db) => {
      const counters = db.collection<{ _id: string; n: number }>('concurrency_counters');
      await counters.insertOne({ _id: 'one', n: 0 });
      await Promise.all(Array.from({ length: 200 }, () => counters.updateOne({ _id: 'one' }, { $inc: { n: 1 } })));
      return counters.findOne({ _id: 'one' });
    });
    expect(found).toEqual({ _id: 'one', n: 200 });
  });

  it('over the same connection, makes 50 concurrent upserts of a new counter converge on one document counting 50', async () => {
    const { rejected, found } = await withDefaultConnection(async (db) => {
      const counters = db.collection<{ _id: string; n: number }>('concurrency_counters');
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, () => counters.updateOne({ _id: 'fresh' }, { $inc: { n: 1 } }, { upsert: true })),
      );
      return { rejected: results.filter((result) => result.status === 'rejected'), found: await counters.find({ _id: 'fresh' }).toArray() };
    });
    expect(rejected).toEqual([]);
    expect(found).toEqual([{ _id: 'fresh', n: 50 }]);
  });

  it('keeps the app’s limits exact whatever the connections: 200 concurrent hits on a limit of 50 let exactly 50 through', async () => {
    const limits = running.app.get(RateLimitService);
    const rule = { scope: 'ip' as const, limit: 50, windowSeconds: 3600 };
    // Two instances' worth of callers: this app, and a second one on the same database.
    const second = await createApp(loadConfig({ NODE_ENV: 'test', MONGODB_URI: running.mongodbUri, LOG_LEVEL: 'error', PORT: '0' }));
    try {
      const both = [limits, second.app.get(RateLimitService)];
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) => both[index % 2].take('concurrency', rule, 'one subject')),
      );
      expect(answers.filter((answer) => answer.allowed)).toHaveLength(50);
      expect(new Set(answers.map((answer) => answer.claim).filter(Boolean)).size).toBe(50);
    } finally {
      await second.close();
    }
  });
});
