import { Global, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { FileStorage } from './file-storage.js';
import { GridFsFileStorage } from './gridfs-file-storage.js';
import { S3FileStorage } from './s3-file-storage.js';

/** S3 when S3_BUCKET is set, otherwise GridFS in the application's database (docs/components.md). */
export function createFileStorage(config: AppConfig, connection: Connection): FileStorage {
  if (!config.s3) return new GridFsFileStorage(connection);
  const { bucket, endpoint, prefix } = config.s3;
  new Logger('FileStorage').log(
    `Files are stored in S3 bucket "${bucket}"${prefix ? ` under "${prefix}"` : ''}${endpoint ? ` at ${endpoint}` : ''}`,
  );
  return new S3FileStorage(config.s3);
}

@Global()
@Module({
  providers: [{ provide: FileStorage, useFactory: createFileStorage, inject: [APP_CONFIG, getConnectionToken()] }],
  exports: [FileStorage],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(private readonly storage: FileStorage) {}

  onApplicationShutdown(): void {
    if (this.storage instanceof S3FileStorage) this.storage.close();
  }
}
