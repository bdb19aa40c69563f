/**
 * GridFS storage against the real test database: files of several chunks come back byte for byte,
 * whatever order their chunks lie in, and a damaged file fails its stream instead of serving
 * wrong bytes. Files are in the standard layout (the driver reads them), chunks have `_id`s of
 * their own (`<file id>:<n>`), and files the driver's uploader stored are still served. The
 * database is reached through one connection, as the app does on FerretDB.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Db, GridFSBucket, ObjectId } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { GridFsFileStorage } from '../../src/storage/gridfs-file-storage.js';
import { testDatabaseUri } from '../support/test-database.js';

const CHUNK = 255 * 1024;
let connection: Connection;
let storage: GridFsFileStorage;

async function bytesOf(id: string, area = 'files'): Promise<Buffer> {
  const file = await storage.get(area, id);
  if (!file) throw new Error(`no file ${id}`);
  const parts: Buffer[] = [];
  for await (const part of file.body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

beforeAll(async () => {
  connection = await mongoose.createConnection(testDatabaseUri('gridfs'), { maxPoolSize: 1 }).asPromise();
  storage = new GridFsFileStorage(connection);
});

async function rangeOf(area: string, id: string, start: number, end: number): Promise<Buffer> {
  const file = await storage.get(area, id, { start, end });
  if (!file) throw new Error(`no file ${id}`);
  return buffer(file.body);
}

/** Each range of `data` read back from the stored file, as { start, end, equal } for a readable failure. */
async function checkRanges(area: string, id: string, data: Buffer, ranges: [number, number][]) {
  const results = [];
  for (const [start, end] of ranges)
    results.push({ start, end, equal: (await rangeOf(area, id, start, end)).equals(data.subarray(start, end + 1)) });
  expect(results).toEqual(ranges.map(([start, end]) => ({ start, end, equal: true })));
}

const db = (): Db => connection.db as unknown as Db;

afterAll(async () => {
  await connection?.close();
});

describe('GridFS file storage', () => {
  it('gives back a file of several chunks byte for byte, with its length and type', async () => {
    const data = randomBytes(3 * CHUNK + 1234);
    const id = await storage.put('files', { body: data, contentType: 'image/png', length: data.length });
    const file = await storage.get('files', id);
    expect(file).toMatchObject({ contentType: 'image/png', length: data.length, etag: `"${id}"` });
    file!.body.destroy();
    expect((await bytesOf(id)).equals(data)).toBe(true);
  });

  it('gives back an empty file and a file of exactly one chunk', async () => {
    const empty = await storage.put('files', { body: Buffer.alloc(0), contentType: 'text/plain', length: 0 });
    expect(await bytesOf(empty)).toHaveLength(0);
    const one = randomBytes(CHUNK);
    expect((await bytesOf(await storage.put('files', { body: one, contentType: 'text/plain', length: one.length }))).equals(one)).toBe(
      true,
    );
  });

  it('puts chunks stored out of order back in order', async () => {
    const files = connection.db!.collection('files.files');
    const chunks = connection.db!.collection('files.chunks');
    const id = new ObjectId();
    const parts = [Buffer.from('a'.repeat(10)), Buffer.from('b'.repeat(10)), Buffer.from('c'.repeat(10)), Buffer.from('d'.repeat(4))];
    for (const n of [2, 0, 3, 1]) await chunks.insertOne({ files_id: id, n, data: parts[n] });
    await files.insertOne({ _id: id, length: 34, chunkSize: 10, uploadDate: new Date(), filename: 'shuffled', metadata: {} });
    const file = await storage.get('files', id.toString());
    expect(await text(file!.body)).toBe(`${'a'.repeat(10)}${'b'.repeat(10)}${'c'.repeat(10)}dddd`);
  });

  it('reads a byte range from the chunks that hold it only, in order whatever order they lie in', async () => {
    const data = randomBytes(4 * CHUNK + 77);
    const id = await storage.put('files', { body: data, contentType: 'application/octet-stream', length: data.length });
    const ranged = async (start: number, end: number) => {
      const file = await storage.get('files', id, { start, end });
      expect(file!.length).toBe(data.length);
      const parts: Buffer[] = [];
      for await (const part of file!.body) parts.push(part as Buffer);
      return Buffer.concat(parts);
    };
    for (const [start, end] of [
      [0, 0],
      [10, 19],
      [CHUNK - 1, CHUNK],
      [CHUNK, 2 * CHUNK - 1],
      [CHUNK + 5, 3 * CHUNK + 9],
      [data.length - 5, data.length - 1],
      [0, data.length - 1],
    ]) {
      expect({ start, end, equal: (await ranged(start, end)).equals(data.subarray(start, end + 1)) }).toEqual({ start, end, equal: true });
    }
    const files = connection.db!.collection('files.files');
    const chunks = connection.db!.collection('files.chunks');
    const shuffled = new ObjectId();
    const parts = ['a', 'b', 'c', 'd'].map((letter) => Buffer.from(letter.repeat(10)));
    for (const n of [3, 1, 0, 2]) await chunks.insertOne({ files_id: shuffled, n, data: parts[n] });
    await files.insertOne({ _id: shuffled, length: 40, chunkSize: 10, uploadDate: new Date(), filename: 'shuffled', metadata: {} });
    const file = await storage.get('files', shuffled.toString(), { start: 15, end: 32 });
    expect(await text(file!.body)).toBe(`${'b'.repeat(5)}${'c'.repeat(10)}ddd`);
  });

  it('fails the stream of a file with a missing or mis-sized chunk', async () => {
    const files = connection.db!.collection('files.files');
    const chunks = connection.db!.collection('files.chunks');
    const missing = new ObjectId();
    await chunks.insertOne({ files_id: missing, n: 0, data: Buffer.alloc(10) });
    await files.insertOne({ _id: missing, length: 20, chunkSize: 10, uploadDate: new Date(), filename: 'missing', metadata: {} });
    await expect(bytesOf(missing.toString())).rejects.toThrow(/missing chunk 1/);

    const short = new ObjectId();
    await chunks.insertMany([
      { files_id: short, n: 0, data: Buffer.alloc(7) },
      { files_id: short, n: 1, data: Buffer.alloc(10) },
    ]);
    await files.insertOne({ _id: short, length: 20, chunkSize: 10, uploadDate: new Date(), filename: 'short', metadata: {} });
    await expect(bytesOf(short.toString())).rejects.toThrow(/chunk 0 of 7 bytes, expected 10/);
  });

  it('writes the standard layout with chunk ids of its own, and the driver reads and deletes the file', async () => {
    const data = randomBytes(3 * CHUNK + 999);
    const id = await storage.put('written', { body: data, contentType: 'application/zip', length: data.length, filename: 'a.zip' });
    expect(
      await db()
        .collection('written.files')
        .findOne({ _id: new ObjectId(id) }),
    ).toEqual({
      _id: new ObjectId(id),
      length: data.length,
      chunkSize: CHUNK,
      uploadDate: expect.any(Date),
      filename: 'a.zip',
      metadata: { contentType: 'application/zip', cacheControl: null },
    });
    const chunks = await db()
      .collection('written.chunks')
      .find({ files_id: new ObjectId(id) })
      .toArray();
    expect(chunks.map((chunk) => [chunk._id, chunk.n]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual(
      [0, 1, 2, 3].map((n) => [`${id}:${n}`, n]),
    );
    const bucket = new GridFSBucket(db(), { bucketName: 'written' });
    expect((await buffer(bucket.openDownloadStream(new ObjectId(id)))).equals(data)).toBe(true);
    const ranged = await buffer(bucket.openDownloadStream(new ObjectId(id), { start: CHUNK - 3, end: 2 * CHUNK + 3 }));
    expect(ranged.equals(data.subarray(CHUNK - 3, 2 * CHUNK + 3))).toBe(true);
    await storage.delete('written', id);
    expect(await storage.get('written', id)).toBeNull();
    expect(
      await db()
        .collection('written.chunks')
        .countDocuments({ files_id: new ObjectId(id) }),
    ).toBe(0);
  });

  it('reads ranges in the last chunk and the last chunks of a multi-chunk file, short and long', async () => {
    // 12 chunks: long reads (more than 8 chunks) go by `_id` for the first chunk and scan for the rest.
    const data = randomBytes(11 * CHUNK + 4321);
    const id = await storage.put('last', { body: data, contentType: 'application/octet-stream', length: data.length });
    const end = data.length - 1;
    await checkRanges('last', id, data, [
      [11 * CHUNK, end],
      [end - 100, end - 50],
      [end, end],
      [10 * CHUNK - 7, end],
      [3 * CHUNK + 1, end],
      [0, end],
      [5, 10 * CHUNK + 5],
    ]);
    expect((await bytesOf(id, 'last')).equals(data)).toBe(true);
  });

  it('serves a file uploaded after a bigger one in the same area, whole and in ranges, and the bigger one still', async () => {
    const bigger = randomBytes(10 * CHUNK + 17);
    const biggerId = await storage.put('later', { body: bigger, contentType: 'application/octet-stream', length: bigger.length });
    const later = randomBytes(3 * CHUNK + 100);
    const laterId = await storage.put('later', { body: later, contentType: 'application/octet-stream', length: later.length });
    expect((await bytesOf(laterId, 'later')).equals(later)).toBe(true);
    await checkRanges('later', laterId, later, [
      [0, 99],
      [2 * CHUNK + 50, later.length - 1],
      [later.length - 1, later.length - 1],
    ]);
    expect((await bytesOf(biggerId, 'later')).equals(bigger)).toBe(true);
    await checkRanges('later', biggerId, bigger, [[9 * CHUNK, bigger.length - 1]]);
  });

  it('still serves files stored by the driver (chunks with random ids), whole and in ranges', async () => {
    const bucket = new GridFSBucket(db(), { bucketName: 'legacy' });
    const data = randomBytes(10 * CHUNK + 55);
    const upload = bucket.openUploadStream('old.bin', { metadata: { contentType: 'application/x-old', cacheControl: null } });
    await new Promise<void>((resolve, reject) => Readable.from([data]).pipe(upload).once('finish', resolve).once('error', reject));
    const id = upload.id.toString();
    const chunkIds = await db().collection('legacy.chunks').find({ files_id: upload.id }).toArray();
    expect(chunkIds.every((chunk) => chunk._id instanceof ObjectId)).toBe(true);
    const file = await storage.get('legacy', id);
    expect(file).toMatchObject({ contentType: 'application/x-old', length: data.length });
    expect((await buffer(file!.body)).equals(data)).toBe(true);
    await checkRanges('legacy', id, data, [
      [0, 9],
      [CHUNK - 1, CHUNK + 1],
      [data.length - 10, data.length - 1],
      [CHUNK, data.length - 1],
    ]);
  });

  it('fails the stream of a file it wrote when a chunk looked up by id is missing, mis-sized or not the one asked for', async () => {
    const data = randomBytes(3 * CHUNK);
    const chunks = db().collection<{ _id: string; files_id: ObjectId; n: number; data: Buffer }>('damaged.chunks');
    const missing = await storage.put('damaged', { body: data, contentType: 'application/octet-stream', length: data.length });
    await chunks.deleteOne({ _id: `${missing}:1` });
    await expect(bytesOf(missing, 'damaged')).rejects.toThrow(/missing chunk 1/);
    await expect(rangeOf('damaged', missing, CHUNK + 5, CHUNK + 9)).rejects.toThrow(/missing chunk 1/);

    const short = await storage.put('damaged', { body: data, contentType: 'application/octet-stream', length: data.length });
    await chunks.updateOne({ _id: `${short}:2` }, { $set: { data: Buffer.alloc(10) } });
    await expect(bytesOf(short, 'damaged')).rejects.toThrow(`chunk 2 of 10 bytes, expected ${CHUNK}`);

    const swapped = await storage.put('damaged', { body: data, contentType: 'application/octet-stream', length: data.length });
    await chunks.deleteOne({ _id: `${swapped}:2` });
    await chunks.updateOne({ _id: `${swapped}:1` }, { $set: { n: 2 } });
    await expect(bytesOf(swapped, 'damaged')).rejects.toThrow(/unexpected chunk under the id of chunk 1/);
  });

  it('leaves no chunks and no file behind when the body fails midway', async () => {
    async function* failing() {
      yield randomBytes(CHUNK);
      yield randomBytes(CHUNK + 500);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('the client went away');
    }
    await expect(
      storage.put('failing', { body: Readable.from(failing()), contentType: 'application/octet-stream', length: 3 * CHUNK }),
    ).rejects.toThrow('the client went away');
    expect(await db().collection('failing.chunks').countDocuments()).toBe(0);
    expect(await db().collection('failing.files').countDocuments()).toBe(0);
  });

  it('keeps one chunk in memory while uploading: the body is read only as fast as chunks are stored', async () => {
    const monitored = await mongoose
      .createConnection(testDatabaseUri('gridfs_paced'), { maxPoolSize: 1, monitorCommands: true })
      .asPromise();
    try {
      let stored = 0;
      monitored.getClient().on('commandSucceeded', (event) => {
        if (event.commandName === 'insert') stored += 1;
      });
      const piece = 16 * 1024;
      const total = 6 * CHUNK;
      let read = 0;
      let aheadMost = 0;
      const source = new Readable({
        highWaterMark: piece,
        read() {
          aheadMost = Math.max(aheadMost, read - stored * CHUNK);
          const size = Math.min(piece, total - read);
          read += size;
          setImmediate(() => this.push(size > 0 ? Buffer.alloc(size, read % 251) : null));
        },
      });
      await new GridFsFileStorage(monitored).put('paced', { body: source, contentType: 'application/octet-stream', length: total });
      expect(stored).toBe(6 + 1);
      // The chunk being written, the next one being filled, and the streams' own buffers (16 KiB each).
      expect(aheadMost).toBeLessThanOrEqual(2 * CHUNK + 2 * piece);
    } finally {
      await monitored.close();
    }
  });

  it('stops reading when the stream is destroyed before the end', async () => {
    const data = randomBytes(4 * CHUNK);
    const id = await storage.put('files', { body: data, contentType: 'application/octet-stream', length: data.length });
    const file = await storage.get('files', id);
    const first = await new Promise<Buffer>((resolve) => file!.body.once('data', resolve));
    expect(first.equals(data.subarray(0, CHUNK))).toBe(true);
    file!.body.destroy();
    // The connection is free again: the next query is answered.
    expect(await bytesOf(id)).toHaveLength(data.length);
  });
});
