import { Readable } from 'node:stream';
import { type Collection, type Db, GridFSBucket, type GridFSChunk, type GridFSFile, ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import { type ByteRange, FileStorage, type PutFileInput, type StoredFile } from './file-storage.js';

interface GridFsMetadata {
  contentType?: string;
  cacheControl?: string | null;
}

/**
 * Files in the application's own database (the embedded default): every instance sees them and
 * they are backed up with everything else. Ids are the GridFS file ids; a file never changes
 * after upload, so its id is also its ETag. Uploads and deletes are the driver's GridFSBucket;
 * downloads read the chunks themselves (see {@link readChunks}), in the standard GridFS layout.
 */
export class GridFsFileStorage extends FileStorage {
  readonly backend = 'gridfs' as const;

  constructor(private readonly connection: Connection) {
    super();
  }

  private db(): Db {
    if (!this.connection.db) throw new Error('The database is not connected');
    return this.connection.db as unknown as Db;
  }

  private bucket(area: string): GridFSBucket {
    return new GridFSBucket(this.db(), { bucketName: area });
  }

  async put(area: string, input: PutFileInput): Promise<string> {
    const metadata: GridFsMetadata = { contentType: input.contentType, cacheControl: input.cacheControl ?? null };
    const upload = this.bucket(area).openUploadStream(input.filename ?? 'file', { metadata });
    const source = Buffer.isBuffer(input.body) ? Readable.from([input.body]) : input.body;
    await new Promise<void>((resolve, reject) => {
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      source.once('error', (error) => {
        upload.destroy(error);
        reject(error);
      });
      source.pipe(upload);
    }).catch(async (error: Error) => {
      // Chunks written before the failure are removed, best effort (the database may be the failure).
      await upload.abort().catch(() => undefined);
      throw error;
    });
    return upload.id.toString();
  }

  async get(area: string, id: string, range?: ByteRange): Promise<StoredFile | null> {
    if (!ObjectId.isValid(id) || id.length !== 24) return null;
    const bucket = this.bucket(area);
    const [file] = await bucket.find({ _id: new ObjectId(id) }).toArray();
    if (!file) return null;
    const metadata = (file.metadata ?? {}) as GridFsMetadata;
    return {
      body: Readable.from(readChunks(this.db().collection<GridFSChunk>(`${area}.chunks`), file, range), { objectMode: false }),
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
 * The file's chunks in order, one chunk (255 kB) per round trip to the database.
 *
 * On FerretDB the app has a single connection (see src/database/database-server.ts), so one long
 * command holds up every other query. The driver's download stream asks for the chunks sorted by
 * `n`, which FerretDB 1.x cannot push down: its first batch reads, sorts and returns up to 16 MB in
 * one command (a 16 MB file held other requests for 0.6-0.8 s). Unsorted, FerretDB streams the
 * rows as they lie, so each getMore is one small command and other queries run between them.
 * Chunks come in `n` order in practice (insertion order on FerretDB; the `files_id, n` index on
 * MongoDB); any that arrive early are held until their turn, so the order is right regardless.
 * The limit ends the cursor at the last chunk instead of scanning the rest of the collection.
 * With a range, only the chunks that hold it are read, and the first and last are cut to it.
 */
async function* readChunks(chunks: Collection<GridFSChunk>, file: GridFSFile, range?: ByteRange): AsyncGenerator<Buffer> {
  const total = Math.ceil(file.length / file.chunkSize);
  if (total === 0) return;
  const first = range ? Math.floor(range.start / file.chunkSize) : 0;
  const count = range ? Math.min(total, Math.floor(range.end / file.chunkSize) + 1) : total;
  const filter = range ? { files_id: file._id, n: { $gte: first, $lt: count } } : { files_id: file._id };
  const cursor = chunks.find(filter, { batchSize: 1, limit: count - first, promoteBuffers: true });
  const early = new Map<number, Buffer>();
  let next = first;
  try {
    for await (const chunk of cursor) {
      if (!Number.isInteger(chunk.n) || chunk.n < next || chunk.n >= count || early.has(chunk.n)) {
        throw new Error(`GridFS file ${file._id.toString()} has an unexpected chunk ${chunk.n}`);
      }
      early.set(chunk.n, chunk.data as Buffer);
      for (let data = early.get(next); data; data = early.get(next)) {
        const expected = next < total - 1 ? file.chunkSize : file.length - file.chunkSize * (total - 1);
        if (data.length !== expected) {
          throw new Error(`GridFS file ${file._id.toString()} has chunk ${next} of ${data.length} bytes, expected ${expected}`);
        }
        early.delete(next);
        const offset = next * file.chunkSize;
        next += 1;
        yield range ? data.subarray(Math.max(0, range.start - offset), Math.min(data.length, range.end + 1 - offset)) : data;
      }
    }
  } finally {
    await cursor.close();
  }
  if (next < count) throw new Error(`GridFS file ${file._id.toString()} is missing chunk ${next}`);
}
