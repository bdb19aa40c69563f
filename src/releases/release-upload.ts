import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { ReleasesException } from './releases.exception.js';

export interface UploadLimits {
  fileField: string;
  maxFileBytes: number;
  maxFields: number;
  maxFieldBytes: number;
}

export interface ReceivedUpload<T> {
  fields: Record<string, string>;
  stored: T;
}

/** Receives the file's bytes (the text fields before it are known): answers once they are stored. */
export type StoreFile<T> = (
  fields: Record<string, string>,
  file: NodeJS.ReadableStream & { destroy(error?: Error): void },
  filename: string,
) => Promise<T>;

/**
 * Reads a multipart upload of text fields followed by one file, streaming the file to `store` as
 * it arrives: nothing is held in memory beyond the parser's buffers, whatever the file's size.
 *
 * Failure rules, so that a failed upload leaves nothing behind:
 * - a client that goes away half-way destroys the file stream with an error, so `store` fails
 *   (and the storage removes the chunks it wrote);
 * - anything wrong after `store` succeeded (a second file, a malformed end of the form) calls
 *   `discard` with what `store` answered before the error is thrown.
 * After a failure the rest of the body is read and dropped, so the client gets the answer instead
 * of a reset connection.
 */
export async function receiveUpload<T>(
  request: Request,
  limits: UploadLimits,
  store: StoreFile<T>,
  discard: (stored: T) => Promise<void>,
): Promise<ReceivedUpload<T>> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      // The name as sent: a name with a path in it is refused rather than quietly cut to its last part.
      preservePath: true,
      limits: {
        files: 1,
        fileSize: limits.maxFileBytes,
        fields: limits.maxFields,
        fieldSize: limits.maxFieldBytes,
        fieldNameSize: 64,
        parts: limits.maxFields + 1,
      },
    });
  } catch {
    throw ReleasesException.invalidUpload('Send the release as multipart/form-data: the fields, then the file.');
  }
  const fields: Record<string, string> = {};
  let failure: Error | null = null;
  let storing: Promise<T> | null = null;
  const fail = (error: Error) => {
    failure ??= error;
  };

  parser.on('field', (name, value, info) => {
    if (storing) fail(ReleasesException.invalidUpload('Send every field before the file'));
    else if (info.valueTruncated) fail(ReleasesException.invalidUpload(`${name} is too long`));
    else if (name in fields || name === limits.fileField) fail(ReleasesException.invalidUpload(`${name} is sent twice`));
    else fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== limits.fileField || storing || failure) {
      if (!failure) fail(ReleasesException.invalidUpload(`Send one file, in the field "${limits.fileField}"`));
      stream.resume();
      return;
    }
    stream.once('limit', () => stream.destroy(ReleasesException.tooLarge(limits.maxFileBytes)));
    storing = store({ ...fields }, stream, info.filename ?? '');
    // Whatever `store` did not read (it refused the fields) is dropped, so the parser goes on.
    storing.catch(() => stream.resume());
  });
  for (const event of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    parser.on(event, () => fail(ReleasesException.invalidUpload('The form has too many parts')));
  }
  const interrupted = () => {
    if (!request.complete) parser.destroy(ReleasesException.invalidUpload('The upload was interrupted before the whole file arrived'));
  };
  request.once('close', interrupted);

  const parsed = new Promise<void>((resolve) => {
    parser.once('close', resolve);
    parser.once('error', (error: Error) => {
      fail(error instanceof ReleasesException ? error : ReleasesException.invalidUpload('The multipart form is malformed or incomplete'));
      request.unpipe(parser);
      request.resume();
      resolve();
    });
  });
  request.pipe(parser);
  await parsed;
  request.off('close', interrupted);

  const pending = storing as Promise<T> | null;
  if (!pending) throw failure ?? ReleasesException.invalidUpload(`The form has no file in the field "${limits.fileField}"`);
  let stored: T;
  try {
    stored = await pending;
  } catch (error) {
    throw failure ?? error;
  }
  if (failure) {
    await discard(stored);
    throw failure;
  }
  return { fields, stored };
}

/**
 * Passes the bytes through while computing their SHA-256 and counting them; fails as soon as more
 * than `expected` bytes arrive, and at the end when fewer did (a truncated upload).
 */
export class HashingStream extends Transform {
  private readonly hash = createHash('sha256');
  private received = 0;
  digest: Buffer | null = null;

  constructor(private readonly expected: number) {
    super();
  }

  get size(): number {
    return this.received;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.expected) {
      callback(ReleasesException.invalidUpload(`The file is larger than the size sent (${this.expected} bytes)`));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.received !== this.expected) {
      callback(ReleasesException.invalidUpload(`The file has ${this.received} bytes, not the ${this.expected} sent as its size`));
      return;
    }
    this.digest = this.hash.digest();
    callback();
  }
}
