import { Readable } from 'node:stream';
import { GridFSBucket, ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import { FileStorage, type PutFileInput, type StoredFile } from './file-storage.js';

interface GridFsMetadata {
  contentType?: string;
  cacheControl?: string | null;
}

/**
 * Files in the application's own database (the embedded default): every instance sees them and
 * they are backed up with everything else. Ids are the GridFS file ids; a file never changes
 * after upload, so its id is also its ETag.
 */
export class GridFsFileStorage extends FileStorage {
  readonly backend = 'gridfs' as const;

  constructor(private readonly connection: Connection) {
    super();
  }

  private bucket(area: string): GridFSBucket {
    if (!this.connection.db) throw new Error('The database is not connected');
    return new GridFSBucket(this.connection.db as never, { bucketName: area });
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

  async get(area: string, id: string): Promise<StoredFile | null> {
    if (!ObjectId.isValid(id) || id.length !== 24) return null;
    const bucket = this.bucket(area);
    const [file] = await bucket.find({ _id: new ObjectId(id) }).toArray();
    if (!file) return null;
    const metadata = (file.metadata ?? {}) as GridFsMetadata;
    return {
      body: bucket.openDownloadStream(file._id),
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
