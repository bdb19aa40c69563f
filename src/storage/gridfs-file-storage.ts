import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Collection, type Db, GridFSBucket, type GridFSChunk, type GridFSFile, ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import { DatabaseAvailability } from '../database/database-availability.js';
import { type ByteRange, FileStorage, type PutFileInput, type StoredFile } from './file-storage.js';

interface GridFsMetadata {
  contentType?: string;
  cacheControl?: string | null;
}

/** A chunk document; `_id` is a string in files written here (see {@link chunkId}). */
type StoredChunk = Omit<GridFSChunk, '_id'> & { _id: ObjectId | string };

/** The driver's default chunk size, so files look like any other GridFS file. */
const CHUNK_SIZE = 255 * 1024;

/**
 * A chunk's `_id` in files written here: the file id and the chunk number, so that a download can
 * ask for each chunk by `_id` (see {@link readChunks}). The driver writes random ObjectIds instead;
 * readers that go by `files_id` and `n`, the driver's included, do not look at `_id`.
 */
function chunkId(fileId: ObjectId, n: number): string {
  return `${fileId.toHexString()}:${n}`;
}

/**
 * Files in the application's own database (the embedded default): every instance sees them and
 * they are backed up with everything else. Ids are the GridFS file ids; a file never changes
 * after upload, so its id is also its ETag. Files are in the standard GridFS layout (the driver's
 * GridFSBucket reads and deletes them), but uploads and downloads are done here, chunk by chunk
 * (see {@link ChunkWriter} and {@link readChunks}); deletes are the driver's.
 */
export class GridFsFileStorage extends FileStorage {
  readonly backend = 'gridfs' as const;
  /** Areas whose indexes this instance has made sure of (the driver's upload stream does the same). */
  private readonly indexed = new Map<string, Promise<void>>();

  constructor(private readonly connection: Connection) {
    super();
  }

  private db(): Db {
    if (!this.connection.db) throw new Error('The database is not connected');
    DatabaseAvailability.assertReachable(this.connection);
    return this.connection.db as unknown as Db;
  }

  private bucket(area: string): GridFSBucket {
    return new GridFSBucket(this.db(), { bucketName: area });
  }

  /** The driver's GridFS indexes: MongoDB needs `files_id, n` for the driver's reads and for deletes. */
  private ensureIndexes(area: string): Promise<void> {
    let indexed = this.indexed.get(area);
    if (!indexed) {
      const db = this.db();
      indexed = Promise.all([
        db.collection(`${area}.files`).createIndex({ filename: 1, uploadDate: 1 }),
        db.collection(`${area}.chunks`).createIndex({ files_id: 1, n: 1 }, { unique: true }),
      ]).then(() => undefined);
      indexed.catch(() => this.indexed.delete(area));
      this.indexed.set(area, indexed);
    }
    return indexed;
  }

  /**
   * Streams the body into chunks, one at a time, then writes the files document: a file is visible
   * only once all of its chunks are stored. On a failure the chunks written so far are removed,
   * best effort (the database may be the failure).
   */
  async put(area: string, input: PutFileInput): Promise<string> {
    await this.ensureIndexes(area);
    const db = this.db();
    const id = new ObjectId();
    const chunks = db.collection<StoredChunk>(`${area}.chunks`);
    const writer = new ChunkWriter(chunks, id);
    const source = Buffer.isBuffer(input.body) ? Readable.from([input.body]) : input.body;
    try {
      await pipeline(source, writer);
      const metadata: GridFsMetadata = { contentType: input.contentType, cacheControl: input.cacheControl ?? null };
      await db.collection<GridFSFile>(`${area}.files`).insertOne({
        _id: id,
        length: writer.length,
        chunkSize: CHUNK_SIZE,
        uploadDate: new Date(),
        filename: input.filename ?? 'file',
        metadata,
      });
    } catch (error) {
      // After the insert in flight, if any: a chunk stored after the delete would be left behind.
      await writer.settled();
      await chunks.deleteMany({ files_id: id }).catch(() => undefined);
      throw error;
    }
    return id.toHexString();
  }

  async get(area: string, id: string, range?: ByteRange): Promise<StoredFile | null> {
    if (!ObjectId.isValid(id) || id.length !== 24) return null;
    const bucket = this.bucket(area);
    const [file] = await bucket.find({ _id: new ObjectId(id) }).toArray();
    if (!file) return null;
    const metadata = (file.metadata ?? {}) as GridFsMetadata;
    return {
      body: Readable.from(readChunks(this.db().collection<StoredChunk>(`${area}.chunks`), file, range), { objectMode: false }),
      contentType: metadata.contentType ?? 'application/octet-stream',
      length: file.length,
      etag: `"${id}"`,
      lastModified: file.uploadDate,
      cacheControl: metadata.cacheControl ?? null,
    };
  }

  async exists(area: string, id: string): Promise<boolean> {
    if (!ObjectId.isValid(id) || id.length !== 24) return false;
    return (
      (
        await this.bucket(area)
          .find({ _id: new ObjectId(id) })
          .limit(1)
          .toArray()
      ).length > 0
    );
  }

  async delete(area: string, id: string | null | undefined): Promise<void> {
    if (!id || !ObjectId.isValid(id) || id.length !== 24) return;
    await this.bucket(area)
      .delete(new ObjectId(id))
      .catch((error: Error) => {
        if (!/not found/i.test(error.message)) throw error; // already gone: deleting is idempotent
      });
  }
}

/**
 * Cuts the body into chunks of {@link CHUNK_SIZE} and inserts each one before taking more: one
 * chunk in memory at a time, and the source waits (backpressure) while a chunk is being written.
 */
class ChunkWriter extends Writable {
  /** Bytes written so far; the file's length once the stream has finished. */
  length = 0;
  private n = 0;
  private buffer = Buffer.allocUnsafe(CHUNK_SIZE);
  private filled = 0;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly chunks: Collection<StoredChunk>,
    private readonly fileId: ObjectId,
  ) {
    super();
  }

  /** Resolves once no insert is in flight any more, whatever its outcome. */
  settled(): Promise<void> {
    return this.inFlight.catch(() => undefined);
  }

  override _write(data: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.run(this.take(data), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.run(this.filled > 0 ? this.flush() : Promise.resolve(), callback);
  }

  private run(work: Promise<void>, callback: (error?: Error | null) => void): void {
    this.inFlight = work;
    work.then(() => callback(), callback);
  }

  private async take(data: Buffer): Promise<void> {
    for (let offset = 0; offset < data.length;) {
      const copied = data.copy(this.buffer, this.filled, offset);
      this.filled += copied;
      offset += copied;
      if (this.filled === CHUNK_SIZE) await this.flush();
    }
  }

  private async flush(): Promise<void> {
    const data = this.buffer.subarray(0, this.filled);
    const n = this.n;
    await this.chunks.insertOne({ _id: chunkId(this.fileId, n), files_id: this.fileId, n, data });
    this.n = n + 1;
    this.length += data.length;
    this.buffer = Buffer.allocUnsafe(CHUNK_SIZE);
    this.filled = 0;
  }
}

/**
 * Reads of at most this many chunks (2 MiB) ask for every chunk by `_id`; longer ones only for the
 * first, and scan for the rest (see {@link readChunks}). Both cost per row in front of the chunk:
 * a lookup by `_id` once per chunk, the scan about 7-15 times as much per row but once per read.
 * Up to about eight chunks the lookups cost less wherever the file lies; beyond, the scan does:
 * all 257 chunks of a 64 MiB file by `_id` took 36.9 s, the scan 4.1 s (load average 4).
 */
const BY_ID_MAX_CHUNKS = 8;

/**
 * The file's chunks in order, one chunk (255 kB) per command to the database, the first and last
 * cut to `range` when there is one.
 *
 * On FerretDB the app has a single connection (see src/database/database-server.ts), so one long
 * command holds up every other query, and one past socketTimeoutMS (4 s) fails. FerretDB 1.24 on
 * SQLite uses no index (`explain` says SCAN, `_id` included). It pushes down only a filter that is
 * exactly `_id` equality, as a scan inside SQLite that stops at the match: about 1 ms per 255 kB
 * row in front of it. Any other filter (`files_id`, `n`) makes FerretDB decode every document in
 * front of the ones wanted: 7-15 ms per row. Rows lie in insertion order, so the chunks of every
 * file uploaded earlier into the area come first: the end of a 64 MiB file is 257 rows in, the
 * newest release behind all older ones.
 *
 * Files written by {@link ChunkWriter} have known chunk `_id`s, so the first chunk wanted is read by
 * `_id`, and so is every other one of a short read (ranges: a 1 MiB range 2 MiB before the end of a
 * 64 MiB file went from 1.96 s to 0.22 s to the first byte, 2.0 s to 0.97 s for the whole slice).
 * A longer read scans for the rest, unsorted (FerretDB cannot push a sort on `n` down, and a sorted
 * first batch read and returned up to 16 MB in one command) with one chunk per getMore, so other
 * queries run between them; the limit ends the cursor at the last chunk. That scan still decodes the
 * files in front first: behind two older 64 MiB files its first getMore took 3.7 s (one lookup by
 * `_id` there 0.55 s, so chunk by chunk would take minutes). Chunks come in `n` order in practice
 * (insertion order on FerretDB; the `files_id, n` index on MongoDB); any that arrive early are held
 * until their turn, so the order is right regardless. A file stored by the driver's uploader (random
 * chunk `_id`s) misses the first lookup (a scan of the whole collection inside SQLite) and is then
 * read by the scan alone.
 */
async function* readChunks(chunks: Collection<StoredChunk>, file: GridFSFile, range?: ByteRange): AsyncGenerator<Buffer> {
  const total = Math.ceil(file.length / file.chunkSize);
  if (total === 0) return;
  const first = range ? Math.floor(range.start / file.chunkSize) : 0;
  const count = range ? Math.min(total, Math.floor(range.end / file.chunkSize) + 1) : total;
  const head = await chunkById(chunks, file, first);
  if (!head) {
    yield* scanChunks(chunks, file, first, count, range);
    return;
  }
  yield piece(file, first, head.data as Buffer, range);
  if (count - first > BY_ID_MAX_CHUNKS) {
    yield* scanChunks(chunks, file, first + 1, count, range);
    return;
  }
  for (let n = first + 1; n < count; n += 1) {
    const chunk = await chunkById(chunks, file, n);
    if (!chunk) throw new Error(`GridFS file ${file._id.toString()} is missing chunk ${n}`);
    yield piece(file, n, chunk.data as Buffer, range);
  }
}

async function chunkById(chunks: Collection<StoredChunk>, file: GridFSFile, n: number): Promise<StoredChunk | null> {
  const chunk = await chunks.findOne({ _id: chunkId(file._id, n) }, { promoteBuffers: true });
  if (chunk && (chunk.n !== n || !file._id.equals(chunk.files_id))) {
    throw new Error(`GridFS file ${file._id.toString()} has an unexpected chunk under the id of chunk ${n}`);
  }
  return chunk;
}

/** Chunks `from` to `count - 1` found by `files_id` and `n` (see {@link readChunks}). */
async function* scanChunks(
  chunks: Collection<StoredChunk>,
  file: GridFSFile,
  from: number,
  count: number,
  range?: ByteRange,
): AsyncGenerator<Buffer> {
  if (from >= count) return;
  const filter =
    from > 0 || count < Math.ceil(file.length / file.chunkSize)
      ? { files_id: file._id, n: { $gte: from, $lt: count } }
      : { files_id: file._id };
  const cursor = chunks.find(filter, { batchSize: 1, limit: count - from, promoteBuffers: true });
  const early = new Map<number, Buffer>();
  let next = from;
  try {
    for await (const chunk of cursor) {
      if (!Number.isInteger(chunk.n) || chunk.n < next || chunk.n >= count || early.has(chunk.n)) {
        throw new Error(`GridFS file ${file._id.toString()} has an unexpected chunk ${chunk.n}`);
      }
      early.set(chunk.n, chunk.data as Buffer);
      for (let data = early.get(next); data; data = early.get(next)) {
        early.delete(next);
        yield piece(file, next, data, range);
        next += 1;
      }
    }
  } finally {
    await cursor.close();
  }
  if (next < count) throw new Error(`GridFS file ${file._id.toString()} is missing chunk ${next}`);
}

/** Chunk `n` checked against the file's chunk size, and cut to the range. */
function piece(file: GridFSFile, n: number, data: Buffer, range?: ByteRange): Buffer {
  const total = Math.ceil(file.length / file.chunkSize);
  const expected = n < total - 1 ? file.chunkSize : file.length - file.chunkSize * (total - 1);
  if (data.length !== expected) {
    throw new Error(`GridFS file ${file._id.toString()} has chunk ${n} of ${data.length} bytes, expected ${expected}`);
  }
  if (!range) return data;
  const offset = n * file.chunkSize;
  return data.subarray(Math.max(0, range.start - offset), Math.min(data.length, range.end + 1 - offset));
}
