/**
 * GridFS storage against the real test database: files of several chunks come back byte for byte,
 * whatever order their chunks lie in, and a damaged file fails its stream instead of serving
 * wrong bytes. The database is reached through one connection, as the app does on FerretDB.
 */
import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ObjectId } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { GridFsFileStorage } from '../../src/storage/gridfs-file-storage.js';
import { testDatabaseUri } from '../support/test-database.js';

const CHUNK = 255 * 1024;
let connection: Connection;
let storage: GridFsFileStorage;

async function bytesOf(id: string): Promise<Buffer> {
  const file = await storage.get('files', id);
  if (!file) throw new Error(`no file ${id}`);
  const parts: Buffer[] = [];
  for await (const part of file.body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

beforeAll(async () => {
  connection = await mongoose.createConnection(testDatabaseUri('gridfs'), { maxPoolSize: 1 }).asPromise();
  storage = new GridFsFileStorage(connection);
});

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
