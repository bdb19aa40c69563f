import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { GridFSBucket, ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';

export interface StoredFile {
  data: Buffer;
  contentType: string;
  length: number;
  uploadedAt: Date;
}

/**
 * File storage. The embedded default is MongoDB GridFS (PRODUCT.md §5), so files live in the same
 * database as everything else and every instance sees them. An S3 implementation can replace this
 * service behind the same three methods.
 */
@Injectable()
export class FileStorageService {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private bucket(name: string): GridFSBucket {
    if (!this.connection.db) throw new Error('The database is not connected');
    return new GridFSBucket(this.connection.db as never, { bucketName: name });
  }

  async put(bucketName: string, filename: string, data: Buffer, contentType: string): Promise<string> {
    const upload = this.bucket(bucketName).openUploadStream(filename, { metadata: { contentType } });
    await new Promise<void>((resolve, reject) => {
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(data);
    });
    return upload.id.toString();
  }

  async get(bucketName: string, id: string): Promise<StoredFile | null> {
    if (!ObjectId.isValid(id)) return null;
    const bucket = this.bucket(bucketName);
    const [file] = await bucket.find({ _id: new ObjectId(id) }).toArray();
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    return {
      data: Buffer.concat(chunks),
      contentType: (file.metadata as { contentType?: string } | undefined)?.contentType ?? 'application/octet-stream',
      length: file.length,
      uploadedAt: file.uploadDate,
    };
  }

  async remove(bucketName: string, id: string | null | undefined): Promise<void> {
    if (!id || !ObjectId.isValid(id)) return;
    await this.bucket(bucketName)
      .delete(new ObjectId(id))
      .catch((error: Error) => {
        if (!/not found/i.test(error.message)) throw error; // already gone: deleting is idempotent
      });
  }
}
