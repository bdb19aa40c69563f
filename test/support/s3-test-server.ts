import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The only key pair s3rver knows. A request with another access key is refused (403
 * InvalidAccessKeyId); s3rver 3 verifies the signature itself only for SigV2, not the SDK's SigV4.
 */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

interface S3rverInstance {
  run(): Promise<{ port: number; address: string }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance & { httpServer?: Server };

/**
 * A real S3 REST server (s3rver) on loopback: random port, files in a temporary folder removed on
 * stop, access keys checked against {@link S3_TEST_CREDENTIALS}, path-style addressing.
 */
export class S3TestServer {
  private server: S3rverInstance | null = null;
  private directory = '';
  port = 0;

  constructor(readonly bucket = 'hitscope-test') {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<string> {
    // s3rver is CommonJS without type declarations.
    const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
    this.directory = await mkdtemp(join(tmpdir(), 'hitscope-s3rver-'));
    this.server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: this.directory,
      allowMismatchedSignatures: false,
      vhostBuckets: false,
      configureBuckets: [{ name: this.bucket }],
    });
    const { port } = await this.server.run();
    this.port = port;
    return this.endpoint;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = null;
    if (this.directory) await rm(this.directory, { recursive: true, force: true });
  }
}
