import type { Readable } from 'node:stream';
import { ServiceUnavailableException } from '@nestjs/common';

/** What is stored beside the bytes, and given back when they are served. */
export interface StoredFileInfo {
  contentType: string;
  length: number;
  /** A strong validator, quoted as in the HTTP header. */
  etag: string;
  lastModified: Date;
  /** The Cache-Control the file was stored with; null when none was given. */
  cacheControl: string | null;
}

export interface StoredFile extends StoredFileInfo {
  /** The bytes, streamed; destroy it when they are not wanted after all. */
  body: Readable;
}

/** Bytes `start` to `end` of a file, both inclusive (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutFileInput {
  body: Buffer | Readable;
  contentType: string;
  /** Byte length of `body`; required because S3 needs it up front to stream an upload. */
  length: number;
  cacheControl?: string;
  /** A human-readable name kept as metadata (GridFS filename); never part of the id. */
  filename?: string;
}

/**
 * File storage, one interface for both backends (docs/components.md): MongoDB GridFS by default, an
 * S3-compatible bucket when S3_BUCKET is set. Files live in named areas (`avatars`…) and are
 * addressed by an opaque id the storage chooses; ids of one backend mean nothing to the other.
 *
 * Failures of the backend itself (unreachable, refused credentials) are thrown as
 * {@link StorageUnavailableError}, so callers answer 503 and keep their own records unchanged;
 * a missing file is `null`/`false`, never an error.
 */
export abstract class FileStorage {
  abstract readonly backend: 'gridfs' | 's3';
  abstract put(area: string, input: PutFileInput): Promise<string>;
  /** With `range`, `body` holds only those bytes (`length` stays the whole file's length). */
  abstract get(area: string, id: string, range?: ByteRange): Promise<StoredFile | null>;
  abstract exists(area: string, id: string): Promise<boolean>;
  /** Idempotent: deleting a missing file (or a null id) succeeds. */
  abstract delete(area: string, id: string | null | undefined): Promise<void>;
}

/** 503 with Retry-After (the global filter's rule for ServiceUnavailableException); details go to the log only. */
export class StorageUnavailableError extends ServiceUnavailableException {
  constructor() {
    super('File storage is unavailable right now. Try again in a moment.');
  }
}
