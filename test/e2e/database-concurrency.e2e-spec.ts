/**
 * Concurrent updates through the app's own database connection. On the embedded FerretDB (the
 * default here) an update is a read and a separate write, so several connections lose concurrent
 * updates; the app keeps one connection to FerretDB and a normal pool to MongoDB, and counters are
 * exact on both.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { identifyDatabaseServer } from '../../src/database/database-server.js';
import { testDatabaseUri } from '../support/test-database.js';

let running: RunningApp;
let connection: Connection;

beforeAll(async () => {
  running = await createApp(loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('concurrency'), LOG_LEVEL: 'error', PORT: '0' }));
  connection = running.app.get<Connection>(getConnectionToken());
});

afterAll(async () => {
  await running?.close();
});

describe('the app’s database connection', () => {
  it('is one connection on FerretDB and the driver’s pool on MongoDB, as the server itself says', async () => {
    const server = await identifyDatabaseServer(running.mongodbUri);
    expect(connection.getClient().options.maxPoolSize).toBe(server === 'ferretdb' ? 1 : 100);
  });

  it('applies 200 concurrent $inc on one document exactly (n = 200)', async () => {
    const counters = connection.collection<{ _id: string; n: number }>('concurrency_counters');
    await counters.insertOne({ _id: 'one', n: 0 });
    await Promise.all(Array.from({ length: 200 }, () => counters.updateOne({ _id: 'one' }, { $inc: { n: 1 } })));
    expect(await counters.findOne({ _id: 'one' })).toEqual({ _id: 'one', n: 200 });
  });

  it('makes 50 concurrent upserts of a new counter converge on one document counting 50', async () => {
    const counters = connection.collection<{ _id: string; n: number }>('concurrency_counters');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => counters.updateOne({ _id: 'fresh' }, { $inc: { n: 1 } }, { upsert: true })),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await counters.find({ _id: 'fresh' }).toArray()).toEqual([{ _id: 'fresh', n: 50 }]);
  });
});
