/**
 * Releases on S3 storage (s3rver on loopback): a build streams into the bucket with its declared
 * length, downloads and ranges come back from it, and an upload whose bytes do not match its size is
 * a 400 (not a storage 503) that leaves no object behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import request from 'supertest';
import type { OwnedLicenceList } from '../../lib/api/licences.js';
import type { AdminRelease } from '../../lib/api/releases.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { type SignedUp, signUp } from '../support/e2e.js';
import { S3_TEST_CREDENTIALS, S3TestServer } from '../support/s3-test-server.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'releases-s3-admin@example.test';
const APPS = 'hitscope-for-apps';

const s3 = new S3TestServer('hitscope-releases');
let running: RunningApp;
let bucket: S3Client;
let admin: SignedUp;
let owner: SignedUp;

const server = () => running.app.getHttpServer();
const objects = async () =>
  ((await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'e2e/releases/' }))).Contents ?? []).map((item) => item.Key);

function upload(version: string, file: Buffer, size = file.length) {
  let req = admin.agent.post('/api/admin/releases').set('x-csrf-token', admin.token);
  for (const [name, value] of Object.entries({
    product: APPS,
    platform: 'linux',
    arch: 'arm64',
    channel: 'beta',
    version,
    size: String(size),
  }))
    req = req.field(name, value);
  return req.attach('file', file, 'hitscope.tar.gz');
}

beforeAll(async () => {
  await s3.start();
  running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: testDatabaseUri('releases_s3'),
      LOG_LEVEL: 'error',
      PORT: '0',
      AUTH_SECRET: 'releases-s3-suite-secret-0123456789-abcdefghijklmnop',
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MULTIPLIER: '1000',
      S3_BUCKET: s3.bucket,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'e2e/',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    }),
  );
  await running.app.listen(0, '127.0.0.1');
  bucket = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  [admin, owner] = await Promise.all([
    signUp({ agent: request.agent(server()), email: ADMIN, name: 'Admin', database: running.mongodbUri }),
    signUp({ agent: request.agent(server()), database: running.mongodbUri }),
  ]);
  await admin.agent
    .post(`/api/admin/users/${owner.user.id}/licences`)
    .set('x-csrf-token', admin.token)
    .send({ planId: 'solo-lifetime', products: [APPS], seats: 1 })
    .expect(201);
}, 60_000);

afterAll(async () => {
  await running?.close();
  bucket?.destroy();
  await s3.stop();
});

it('streams a build into the bucket and serves it, whole and by range, to a licence holder', async () => {
  const build = randomBytes(300 * 1024 + 11);
  const release = (await upload('2.0.0-beta.1', build).expect(201)).body as AdminRelease;
  expect(release.file.sha256).toBe(createHash('sha256').update(build).digest('hex'));
  expect(await objects()).toHaveLength(1);
  const whole = await owner.agent.get(`/api/releases/${release.id}/download`).buffer(true).parse(binary).expect(200);
  expect(Buffer.compare(whole.body as Buffer, build)).toBe(0);
  const part = await owner.agent
    .get(`/api/releases/${release.id}/download`)
    .set('Range', 'bytes=10-19')
    .buffer(true)
    .parse(binary)
    .expect(206);
  expect(Buffer.compare(part.body as Buffer, build.subarray(10, 20))).toBe(0);
  expect(part.headers['content-range']).toBe(`bytes 10-19/${build.length}`);
  const key = ((await owner.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences[0].key!;
  const update = await request(server())
    .get(`/api/v1/releases/latest?product=${APPS}&platform=linux&arch=arm64&channel=beta&current=1.9.0`)
    .set('Authorization', `License ${key}`)
    .expect(200);
  expect(update.body).toMatchObject({ updateAvailable: true, entitled: true, latest: { version: '2.0.0-beta.1' } });
});

it('answers a build whose bytes do not match its size 400, and keeps no object', async () => {
  const before = await objects();
  const longer = await upload('2.0.0-beta.2', randomBytes(5000), 4000).expect(400);
  expect(longer.body.message).toMatch(/larger than the size sent/);
  const shorter = await upload('2.0.0-beta.3', randomBytes(3000), 4000).expect(400);
  expect(shorter.body.message).toMatch(/not the 4000 sent as its size/);
  await eventuallyNoNewObjects(before);
});

it('keeps no object when the client goes away half-way through the build', async () => {
  const before = await objects();
  const boundary = `----s3${randomBytes(6).toString('hex')}`;
  const fields = {
    product: APPS,
    platform: 'linux',
    arch: 'arm64',
    channel: 'beta',
    version: '2.0.0-beta.4',
    size: String(2 * 1024 * 1024),
  };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.tar.gz"\r\n\r\n`,
  );
  const jar = (admin.agent as unknown as { jar: { getCookies(access: unknown): { toValueString(): string }[] } }).jar;
  const cookie = jar
    .getCookies({ domain: '127.0.0.1', path: '/api/admin', secure: false, script: false })
    .map((item) => item.toValueString())
    .join('; ');
  const client = httpRequest({
    host: '127.0.0.1',
    port: (server().address() as AddressInfo).port,
    method: 'POST',
    path: '/api/admin/releases',
    headers: {
      cookie,
      'x-csrf-token': admin.token,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + 2 * 1024 * 1024 + 64),
    },
  });
  client.on('error', () => undefined);
  client.write(head);
  client.write(randomBytes(1024 * 1024));
  await new Promise((resolve) => setTimeout(resolve, 300));
  client.destroy();
  await eventuallyNoNewObjects(before);
  // The app is still serving (the aborted upload is not holding anything).
  await request(server()).get(`/api/releases/latest?product=${APPS}`).expect(200);
});

/** s3rver writes what arrived of an aborted PUT after the connection closed; the storage deletes it again a moment later. */
async function eventuallyNoNewObjects(before: Array<string | undefined>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (JSON.stringify(await objects()) !== JSON.stringify(before) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await objects()).toEqual(before);
}

function binary(res: unknown, callback: (error: Error | null, body: Buffer) => void): void {
  const response = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
  response.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}
