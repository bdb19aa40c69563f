import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Logger } from '@nestjs/common';
import type { S3Config } from '../config/app-config.js';
import { type ByteRange, FileStorage, type PutFileInput, type StoredFile, StorageUnavailableError } from './file-storage.js';

/** Ids this storage hands out: 128 random bits in hex. Anything else is not ours and cannot be a key. */
const ID = /^[0-9a-f]{32}$/;
const MISSING = new Set(['NoSuchKey', 'NotFound']);

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2…), keyed `<prefix><area>/<id>`.
 * Uploads stream with their length, content type and Cache-Control stored on the object; downloads
 * stream back with the object's ETag. A missing object is `null`; every other failure of the
 * service (unreachable, refused credentials, missing bucket) is logged with its cause and thrown as
 * {@link StorageUnavailableError} (503), so nothing in the database is changed after it.
 */
export class S3FileStorage extends FileStorage {
  readonly backend = 's3' as const;
  private readonly logger = new Logger(S3FileStorage.name);
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    super();
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: many S3-compatible servers reject the SDK's default
      // aws-chunked uploads with trailing checksums, and the length is checked anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Bounded, so an unreachable endpoint fails fast (within the request timeout) instead of hanging.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 2000, requestTimeout: 15_000 },
    });
  }

  private key(area: string, id: string): string {
    return `${this.config.prefix}${area}/${id}`;
  }

  async put(area: string, input: PutFileInput): Promise<string> {
    const id = randomBytes(16).toString('hex');
    // A body stream that fails (its client went away, it has more or fewer bytes than `length`)
    // aborts the request: otherwise the bucket waits for the bytes still owed and the upload hangs
    // until a timeout. That failure is the caller's, not S3's.
    const abort = new AbortController();
    if (!Buffer.isBuffer(input.body)) input.body.once('error', (error: Error) => abort.abort(error));
    const upload = this.call(
      'upload',
      this.key(area, id),
      () =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.config.bucket,
            Key: this.key(area, id),
            Body: input.body,
            ContentType: input.contentType,
            ContentLength: input.length,
            CacheControl: input.cacheControl,
          }),
          { abortSignal: abort.signal },
        ),
      abort.signal,
    );
    try {
      await upload;
    } catch (error) {
      // AWS S3 keeps nothing of an aborted PUT, but some S3-compatible servers (s3rver, the test
      // double) keep what arrived, and write it only after the connection has closed: remove it
      // now and once more a moment later, best effort (deleting a missing key succeeds).
      if (abort.signal.aborted) {
        const remove = () => this.delete(area, id).catch(() => undefined);
        await remove();
        setTimeout(() => void remove(), 1000).unref();
      }
      throw error;
    }
    return id;
  }

  async get(area: string, id: string, range?: ByteRange): Promise<StoredFile | null> {
    if (!ID.test(id)) return null;
    const object = await this.call('download', this.key(area, id), () =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.key(area, id),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      ),
    );
    if (!object?.Body) return null;
    // A ranged answer's Content-Range ends with the whole object's length ("bytes 0-9/1234").
    const whole = range && object.ContentRange ? Number(/\/(\d+)$/.exec(object.ContentRange)?.[1]) : NaN;
    return {
      body: object.Body as Readable,
      contentType: object.ContentType ?? 'application/octet-stream',
      length: Number.isFinite(whole) ? whole : (object.ContentLength ?? 0),
      etag: object.ETag ?? `"${id}"`,
      lastModified: object.LastModified ?? new Date(0),
      cacheControl: object.CacheControl ?? null,
    };
  }

  async exists(area: string, id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    const head = await this.call('look up', this.key(area, id), () =>
      this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.key(area, id) })),
    );
    return head !== null;
  }

  async delete(area: string, id: string | null | undefined): Promise<void> {
    if (!id || !ID.test(id)) return;
    // S3 answers 204 for a missing key too: deleting is idempotent by protocol.
    await this.call('delete', this.key(area, id), () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(area, id) })),
    );
  }

  /** Runs one S3 call: a missing object is null, an aborted one throws why, anything else that fails is a logged 503. */
  private async call<T>(action: string, key: string, send: () => Promise<T>, signal?: AbortSignal): Promise<T | null> {
    try {
      return await send();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (
        error instanceof S3ServiceException &&
        (MISSING.has(error.name) || (error.$metadata?.httpStatusCode === 404 && error.name !== 'NoSuchBucket'))
      ) {
        return null;
      }
      this.logger.error(`S3 ${action} of s3://${this.config.bucket}/${key} failed: ${describe(error)}`);
      throw new StorageUnavailableError();
    }
  }

  /** Closes the client's sockets (app shutdown). */
  close(): void {
    this.client.destroy();
  }
}

/** The operator's view of a failure: the service's error code and status, or the network error. */
function describe(error: unknown): string {
  if (error instanceof S3ServiceException) {
    return `${error.name} (HTTP ${error.$metadata?.httpStatusCode ?? '?'}): ${error.message}`;
  }
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  return [name, code, message].filter(Boolean).join(': ') || String(error);
}
