import { mkdtemp, rm } from 'node:fs/promises';
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
