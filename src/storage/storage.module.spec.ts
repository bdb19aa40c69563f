import type { Connection } from 'mongoose';
import { loadConfig } from '../config/app-config.js';
import { GridFsFileStorage } from './gridfs-file-storage.js';
import { S3FileStorage } from './s3-file-storage.js';
import { createFileStorage } from './storage.module.js';

const connection = {} as Connection;

describe('createFileStorage', () => {
  it('uses GridFS without S3_BUCKET', () => {
    expect(createFileStorage(loadConfig({ LOG_LEVEL: 'error' }), connection)).toBeInstanceOf(GridFsFileStorage);
  });

  it('uses S3 when S3_BUCKET is set', () => {
    const storage = createFileStorage(loadConfig({ S3_BUCKET: 'hitscope-files', S3_ENDPOINT: 'http://127.0.0.1:9' }), connection);
    expect(storage).toBeInstanceOf(S3FileStorage);
    expect(storage.backend).toBe('s3');
    (storage as S3FileStorage).close();
  });
});

describe('S3FileStorage', () => {
  // Port 9 (discard) on loopback: any request that reached the network would fail with 503.
  const storage = new S3FileStorage(
    loadConfig({ S3_BUCKET: 'hitscope-files', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3!,
  );
  afterAll(() => storage.close());

  it('treats ids it never issued (other backends, path tricks) as missing without asking the bucket', async () => {
    for (const id of ['', '507f1f77bcf86cd799439011', '../../etc/passwd', 'A'.repeat(32), `${'0'.repeat(32)}/x`]) {
      await expect(storage.get('avatars', id)).resolves.toBeNull();
      await expect(storage.exists('avatars', id)).resolves.toBe(false);
      await expect(storage.delete('avatars', id)).resolves.toBeUndefined();
    }
    await expect(storage.delete('avatars', null)).resolves.toBeUndefined();
  });
});
