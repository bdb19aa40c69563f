import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { MongoClient, ObjectId } from 'mongodb';
import type { RunningApp } from '../../src/app.factory.js';
import { FileStorage } from '../../src/storage/file-storage.js';
import { newAgent, PASSWORD, signUp, type SignedUp } from '../support/e2e.js';
import { freePort } from '../support/oidc-test-provider.js';
import { tinyPng } from '../support/png.js';
import { S3_TEST_CREDENTIALS, S3TestServer } from '../support/s3-test-server.js';
import { testDatabaseUri } from '../support/test-database.js';
import { startInstance } from '../support/test-instance.js';

const PREFIX = 'e2e/';
const AUTH_SECRET = 'storage-s3-e2e-secret-that-is-long-enough-0123456789';

/**
 * Avatars in an S3 bucket: the app runs in-process against s3rver, a real S3 REST server on loopback
 * that checks request signatures. Three instances share one database and AUTH_SECRET (so one
 * session works on all of them): one with the right credentials, one with a wrong secret key, one
 * pointed at a port where nothing listens.
 */
describe('file storage on S3 (s3rver on loopback, signatures checked)', () => {
  const s3 = new S3TestServer('hitscope-avatars');
  let good: RunningApp;
  let wrongCredentials: RunningApp;
  let unreachable: RunningApp;
  let origin: string;
  const ports: Record<'good' | 'wrong' | 'down', number> = { good: 0, wrong: 0, down: 0 };
  let mongo: MongoClient;
  let mongodbUri: string;
  let bucket: S3Client;

  const key = (avatarUrl: string) => `${PREFIX}avatars/${avatarUrl.split('/').pop()}`;
  const head = (avatarUrl: string) => bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key(avatarUrl) }));
  const missing = async (avatarUrl: string) => {
    const error = await head(avatarUrl).then(
      () => null,
      (caught: Error) => caught,
    );
    return error?.name === 'NotFound';
  };
  const on = (which: keyof typeof ports) => `http://127.0.0.1:${ports[which]}`;

  // Every instance answers at `origin` (the good one's address), as behind a load balancer: one
  // session works on all of them.
  const start = async (port: number, env: Record<string, string>) =>
    (
      await startInstance(
        mongodbUri,
        {
          PUBLIC_URL: origin,
          AUTH_SECRET,
          S3_BUCKET: s3.bucket,
          S3_REGION: 'us-east-1',
          S3_FORCE_PATH_STYLE: 'true',
          S3_PREFIX: PREFIX,
          ...env,
        },
        port,
      )
    ).running;

  beforeAll(async () => {
    await s3.start();
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    origin = on('good');
    mongodbUri = testDatabaseUri('storage_s3');
    good = await start(ports.good, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    });
    // s3rver checks the access key of SigV4 requests (InvalidAccessKeyId), not the signature itself.
    wrongCredentials = await start(ports.wrong, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'NOT-A-KNOWN-KEY',
      S3_SECRET_ACCESS_KEY: 'not-the-secret',
    });
    unreachable = await start(ports.down, {
      S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    });
    mongo = await MongoClient.connect(mongodbUri);
    bucket = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: S3_TEST_CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([good?.close(), wrongCredentials?.close(), unreachable?.close()]);
    bucket?.destroy();
    await mongo?.close();
    await s3.stop();
  });

  const upload = (account: SignedUp, image: Buffer, where = on('good')) =>
    newAgent(where)
      .put('/api/profile/avatar')
      .set('Cookie', cookieHeader(account))
      .set('x-csrf-token', account.token)
      .attach('avatar', image, { filename: 'me.png', contentType: 'image/png' });

  /** The account's cookies, to replay on another instance (cookies do not depend on the port). */
  function cookieHeader(account: SignedUp): string {
    const jar = (account.agent as unknown as { jar: { getCookies(access: unknown): { toValueString(): string }[] } }).jar;
    return jar
      .getCookies({ domain: '127.0.0.1', path: '/api/profile', secure: false, script: false })
      .map((cookie) => cookie.toValueString())
      .join('; ');
  }

  it('stores a streamed file of a declared length (a release build) and reads byte ranges of it back', async () => {
    const storage = good.app.get(FileStorage);
    const data = randomBytes(300 * 1024 + 7);
    const id = await storage.put('releases', {
      body: Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      contentType: 'application/zip',
      length: data.length,
      filename: 'build.zip',
    });
    const read = async (range?: { start: number; end: number }) => {
      const file = await storage.get('releases', id, range);
      const parts: Buffer[] = [];
      for await (const part of file!.body) parts.push(part as Buffer);
      return { length: file!.length, bytes: Buffer.concat(parts) };
    };
    expect((await read()).bytes.equals(data)).toBe(true);
    const part = await read({ start: 10, end: 19 });
    expect(part.length).toBe(data.length);
    expect(part.bytes.equals(data.subarray(10, 20))).toBe(true);
    expect((await read({ start: data.length - 5, end: data.length - 1 })).bytes.equals(data.subarray(data.length - 5))).toBe(true);
    await storage.delete('releases', id);
    expect(await storage.exists('releases', id)).toBe(false);
  });

  it('stores an uploaded avatar in the bucket with its type, length and Cache-Control, and serves it from there', async () => {
    const account = await signUp({ agent: newAgent(on('good')), database: mongodbUri });
    const image = tinyPng(1);
    const uploaded = await upload(account, image).expect(200);
    expect(uploaded.body.avatarUrl).toMatch(/^\/api\/avatars\/[0-9a-f]{32}$/);

    const object = await head(uploaded.body.avatarUrl);
    expect(object).toMatchObject({
      ContentType: 'image/png',
      ContentLength: image.length,
      CacheControl: 'public, max-age=31536000, immutable',
    });
    const stored = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key(uploaded.body.avatarUrl) }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(image)).toBe(true);
    // Nothing of the file is in the database: no GridFS collections were written.
    expect(await mongo.db().collection('avatars.files').countDocuments()).toBe(0);

    const served = await newAgent(on('good')).get(uploaded.body.avatarUrl).buffer(true).expect(200);
    expect(Buffer.compare(served.body as Buffer, image)).toBe(0);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(image.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-security-policy': "default-src 'none'; sandbox",
      etag: object.ETag,
    });
    const revalidated = await newAgent(on('good')).get(uploaded.body.avatarUrl).set('If-None-Match', object.ETag!).expect(304);
    expect(revalidated.headers.etag).toBe(object.ETag);
    expect(revalidated.text ?? '').toBe('');
  });

  it('answers 404, not 500, for an avatar missing from the bucket and for an id that is no key', async () => {
    const account = await signUp({ agent: newAgent(on('good')), database: mongodbUri });
    const { body } = await upload(account, tinyPng(2)).expect(200);
    await bucket.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key(body.avatarUrl) }));
    const gone = await newAgent(on('good')).get(body.avatarUrl).expect(404);
    expect(gone.body).toMatchObject({ statusCode: 404, message: 'No such avatar' });
    await newAgent(on('good'))
      .get(`/api/avatars/${'0'.repeat(32)}`)
      .expect(404);
    await newAgent(on('good')).get('/api/avatars/..%2F..%2Fsecret').expect(404);
  });

  it('deletes the replaced object, the removed avatar and, with the account, the last one', async () => {
    const account = await signUp({ agent: newAgent(on('good')), database: mongodbUri });
    const first = (await upload(account, tinyPng(3)).expect(200)).body.avatarUrl as string;
    const second = (await upload(account, tinyPng(4)).expect(200)).body.avatarUrl as string;
    expect(second).not.toBe(first);
    expect(await missing(first)).toBe(true);
    expect(await missing(second)).toBe(false);
    await newAgent(on('good')).get(first).expect(404);

    const removed = await account.agent.delete('/api/profile/avatar').set('x-csrf-token', account.token).expect(200);
    expect(removed.body.avatarUrl).toBeNull();
    expect(await missing(second)).toBe(true);

    const third = (await upload(account, tinyPng(5)).expect(200)).body.avatarUrl as string;
    expect(await missing(third)).toBe(false);
    await account.agent
      .delete('/api/profile')
      .set('x-csrf-token', account.token)
      .send({ currentPassword: PASSWORD, confirm: 'DELETE' })
      .expect(204);
    expect(await missing(third)).toBe(true);
    expect(await mongo.db().collection('users').countDocuments({ email: account.email })).toBe(0);
  });

  describe.each([
    ['refuses the credentials', 'wrong' as const],
    ['is unreachable', 'down' as const],
  ])('when the bucket %s', (_title, instance) => {
    it('answers a clean 503 and leaves the profile pointing at the old avatar, which still exists', async () => {
      const account = await signUp({ agent: newAgent(on('good')), database: mongodbUri });
      const before = (await upload(account, tinyPng(6)).expect(200)).body.avatarUrl as string;
      const started = Date.now();

      const refused = await upload(account, tinyPng(7), on(instance)).expect(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'File storage is unavailable right now. Try again in a moment.',
      });
      expect(Date.now() - started).toBeLessThan(10_000);

      await newAgent(on(instance)).get(before).expect(503);
      const removal = await newAgent(on(instance))
        .delete('/api/profile/avatar')
        .set('Cookie', cookieHeader(account))
        .set('x-csrf-token', account.token)
        .expect(503);
      expect(removal.body.message).toContain('File storage is unavailable');

      const user = await mongo
        .db()
        .collection('users')
        .findOne({ _id: new ObjectId(account.user.id) });
      expect(`/api/avatars/${user?.avatarId as string}`).toBe(before);
      expect(await missing(before)).toBe(false);
      expect((await account.agent.get('/api/profile').expect(200)).body.avatarUrl).toBe(before);
      await newAgent(on('good')).get(before).expect(200);
      const deletion = await newAgent(on(instance))
        .delete('/api/profile')
        .set('Cookie', cookieHeader(account))
        .set('x-csrf-token', account.token)
        .send({ currentPassword: PASSWORD, confirm: 'DELETE' })
        .expect(503);
      expect(deletion.body.statusCode).toBe(503);
      expect(
        await mongo
          .db()
          .collection('users')
          .countDocuments({ _id: new ObjectId(account.user.id) }),
      ).toBe(1);
      expect(await missing(before)).toBe(false);
      await account.agent.get('/api/auth/me').expect(200); // still signed in: nothing was changed
    });
  });
});
