/**
 * Releases end to end: uploads streamed to real GridFS storage while hashed and signed, the latest
 * listing, licence-gated downloads with ranges, yanking, the apps' update check and key-authorised
 * downloads, and what a failed or hostile upload leaves behind (nothing). An app of this suite's
 * own, on the real database.
 */
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Db, GridFSBucket, MongoClient, ObjectId } from 'mongodb';
import request from 'supertest';
import type { AdminProductList, CatalogueResponse } from '../../lib/api/catalogue.js';
import type { AdminSigningKeyList, LicensingJwks, OwnedLicenceList } from '../../lib/api/licences.js';
import type { AdminRelease, LatestReleasesResponse, UpdateCheckResponse } from '../../lib/api/releases.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { SigningKeysService } from '../../src/licences/signing-keys.service.js';
import { type Agent, csrfToken, type SignedUp, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const APPS = 'hitscope-for-apps';
const BROWSERS = 'hitscope-for-browsers';
const ADMIN = 'releases-admin@example.test';
/** GridFS's default chunk size: the build spans three chunks, so ranges cross chunk boundaries. */
const CHUNK = 255 * 1024;

let running: RunningApp;
let mongo: MongoClient;
let db: Db;
let port: number;
let admin: SignedUp;
let licensed: SignedUp;
let unlicensed: SignedUp;
let licenceKey: string;

const server = () => running.app.getHttpServer();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const build = randomBytes(2 * CHUNK + 1234);
let published: AdminRelease;

interface UploadInput {
  product?: string;
  platform?: string;
  arch?: string;
  channel?: string;
  version?: string;
  format?: string;
  notes?: string;
  size?: string;
}

function upload(as: SignedUp, input: UploadInput, file: Buffer = build, filename = 'Hitscope-1.0.0.dmg') {
  const fields: UploadInput = {
    product: APPS,
    platform: 'macos',
    arch: 'universal',
    channel: 'stable',
    size: String(file.length),
    ...input,
  };
  let req = as.agent.post('/api/admin/releases').set('x-csrf-token', as.token);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) req = req.field(name, value);
  return req.attach('file', file, { filename, contentType: 'application/octet-stream' });
}

/** A multipart body written by hand (superagent cuts a file name to its last part, and this must send it as is). */
function multipart(
  fields: Record<string, string>,
  filename: string,
  file: Buffer,
): { body: Buffer; contentType: string; head: Buffer; tail: Buffer } {
  const boundary = `----releases${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, file, tail]), contentType: `multipart/form-data; boundary=${boundary}`, head, tail };
}

function uploadNamed(as: SignedUp, filename: string, version: string) {
  const fields = { product: APPS, platform: 'linux', arch: 'x64', channel: 'stable', version, size: String(build.length) };
  const { body, contentType } = multipart(fields, filename, build);
  return as.agent.post('/api/admin/releases').set('x-csrf-token', as.token).set('content-type', contentType).send(body);
}

/** What GridFS holds for builds, and the release documents. */
async function stored() {
  const [files, chunks, releases] = await Promise.all([
    db.collection('releases.files').countDocuments(),
    db.collection('releases.chunks').countDocuments(),
    db.collection('releases').countDocuments(),
  ]);
  return { files, chunks, releases };
}

async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > deadline) {
      expect(value).toEqual(expected);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function cookieHeader(agent: Agent): string {
  const jar = (agent as unknown as { jar: { getCookies(access: unknown): { toValueString(): string }[] } }).jar;
  return jar
    .getCookies({ domain: '127.0.0.1', path: '/api/admin', secure: false, script: false })
    .map((cookie) => cookie.toValueString())
    .join('; ');
}

const latest = async (product = APPS) =>
  (await request(server()).get(`/api/releases/latest?product=${product}`).expect(200)).body as LatestReleasesResponse;

beforeAll(async () => {
  running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: testDatabaseUri('releases'),
      LOG_LEVEL: 'error',
      PORT: '0',
      AUTH_SECRET: 'releases-suite-secret-0123456789-abcdefghijklmnop',
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MULTIPLIER: '1000',
    }),
  );
  await running.app.listen(0, '127.0.0.1');
  port = (server().address() as AddressInfo).port;
  mongo = await MongoClient.connect(running.mongodbUri);
  db = mongo.db();
  [admin, licensed, unlicensed] = await Promise.all([
    signUp({ agent: request.agent(server()), email: ADMIN, name: 'Admin', database: running.mongodbUri }),
    signUp({ agent: request.agent(server()), database: running.mongodbUri }),
    signUp({ agent: request.agent(server()), database: running.mongodbUri }),
  ]);
  await admin.agent
    .post(`/api/admin/users/${licensed.user.id}/licences`)
    .set('x-csrf-token', admin.token)
    .send({ planId: 'solo-lifetime', products: [APPS], seats: 1 })
    .expect(201);
  licenceKey = ((await licensed.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences[0].key!;
});

afterAll(async () => {
  await mongo?.close();
  await running?.close();
});

describe('uploads', () => {
  it('streams a build to storage, answers its SHA-256 and an Ed25519 signature that verifies with the published key', async () => {
    const started = Date.now();
    const response = await upload(admin, { version: '1.0.0', notes: '## First\n\nHello.' }).expect(201);
    published = response.body as AdminRelease;
    expect(published).toMatchObject({
      product: APPS,
      platform: 'macos',
      arch: 'universal',
      channel: 'stable',
      version: '1.0.0',
      notes: '## First\n\nHello.',
      // The Markdown as the pages show it, rendered here; its headings start under the card's <h3>.
      notesHtml: '<h4>First</h4>\n<p>Hello.</p>\n',
      status: 'published',
      downloads: 0,
      file: { filename: 'Hitscope-1.0.0.dmg', size: build.length, sha256: sha256(build), contentType: 'application/x-apple-diskimage' },
      downloadUrl: `/api/releases/${published.id}/download`,
    });
    expect(published.id).toMatch(/^[0-9a-f]{24}$/);
    expect(Date.now() - started).toBeLessThan(10_000);

    const jwks = (await request(server()).get('/.well-known/hitscope-licensing-keys.json').expect(200)).body as LicensingJwks;
    const jwk = jwks.keys.find((key) => key.kid === published.signature.kid)!;
    expect(jwk).toBeDefined();
    const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
    const digest = createHash('sha256').update(build).digest();
    expect(verify(null, digest, publicKey, Buffer.from(published.signature.value, 'base64url'))).toBe(true);
    // Over other bytes it does not verify.
    expect(verify(null, createHash('sha256').update('x').digest(), publicKey, Buffer.from(published.signature.value, 'base64url'))).toBe(
      false,
    );

    const audit = await db.collection('audit_log').findOne({ action: 'release.publish', 'target.id': published.id });
    expect(audit).toMatchObject({ actor: { email: ADMIN }, target: { type: 'release' }, after: { sha256: sha256(build) } });
  });

  it('lists it as the latest for its product, platform and arch (and not for the other product)', async () => {
    const listing = await latest();
    expect(listing.releases.map((release) => [release.id, release.file.sha256, release.signature.value])).toEqual([
      [published.id, sha256(build), published.signature.value],
    ]);
    expect(listing.releases[0]).not.toHaveProperty('downloads');
    expect((await latest(BROWSERS)).releases).toEqual([]);
  });

  it('refuses the same version again with 409 and stores nothing more', async () => {
    const before = await stored();
    const response = await upload(admin, { version: '1.0.0' }).expect(409);
    expect(response.body).toMatchObject({ code: 'RELEASE_VERSION_EXISTS' });
    expect(response.body.message).toMatch(/hitscope-for-apps 1\.0\.0 \.dmg \(macos\/universal, stable\) exists already/);
    expect(await stored()).toEqual(before);
  });

  it('is for administrators only: a user gets 403, nobody 401, and a missing CSRF token 403', async () => {
    const before = await stored();
    await upload(unlicensed, { version: '9.0.0' }).expect(403);
    const anonymous = request.agent(server());
    const token = await csrfToken(anonymous);
    await anonymous
      .post('/api/admin/releases')
      .set('x-csrf-token', token)
      .field('version', '9.0.0')
      .attach('file', build, 'x.dmg')
      .expect(401);
    await admin.agent.post('/api/admin/releases').field('version', '9.0.0').attach('file', build, 'x.dmg').expect(403);
    expect(await stored()).toEqual(before);
  });

  it('refuses bad fields, file names that are paths, a wrong size and other bodies with 400, keeping nothing', async () => {
    const before = await stored();
    const cases: Array<[string, ReturnType<typeof upload>, string]> = [
      ['bad version', upload(admin, { version: 'v1' }), 'version'],
      ['path as version', upload(admin, { version: '../../etc/passwd' }), 'version'],
      ['path as platform', upload(admin, { version: '2.0.0', platform: '../../etc/passwd' }), 'platform'],
      ['path as product', upload(admin, { version: '2.0.0', product: '..%2F..%2Fetc' }), 'product'],
      ['unknown arch', upload(admin, { version: '2.0.0', arch: 'mips' }), 'arch'],
      ['size missing', upload(admin, { version: '2.0.0', size: '' }), 'size'],
      ['notes too long', upload(admin, { version: '2.0.0', notes: 'x'.repeat(20_001) }), 'notes'],
      ['path as file name', uploadNamed(admin, '../../etc/passwd', '2.0.0'), 'file'],
      ['absolute path as file name', uploadNamed(admin, '/etc/passwd', '2.0.0'), 'file'],
      ['encoded path as file name', uploadNamed(admin, '..%2F..%2Fetc%2Fpasswd', '2.0.0'), 'file'],
      ['dotted file name', uploadNamed(admin, '..', '2.0.0'), 'file'],
      ['backslash path', uploadNamed(admin, '..\\..\\win.ini', '2.0.0'), 'file'],
    ];
    for (const [title, req, field] of cases) {
      const response = await req;
      expect({ title, status: response.status }).toEqual({ title, status: 400 });
      expect({ title, fields: Object.keys(response.body.fields ?? {}) }).toEqual({ title, fields: [field] });
    }
    // A line break in the file name breaks the part's headers: a malformed form.
    await uploadNamed(admin, 'a.dmg\r\nX-Injected: 1', '2.0.0').expect(400);
    // An unknown field, a size that does not match the bytes, fields after the file, JSON, no file.
    const unknownField = await upload(admin, { version: '2.0.0', admin: 'true' } as UploadInput).expect(400);
    expect(Object.keys(unknownField.body.fields)).toEqual(['admin']);
    const fieldAfterFile = await upload(admin, { version: '2.0.0' }).field('channel', 'beta').expect(400);
    expect(fieldAfterFile.body.message).toBe('Send every field before the file');
    const wrongSize = await upload(admin, { version: '2.0.0', size: String(build.length + 10) }).expect(400);
    expect(wrongSize.body.message).toMatch(/not the .* sent as its size/);
    const tooSmall = await upload(admin, { version: '2.0.0', size: '100' }).expect(400);
    expect(tooSmall.body.message).toMatch(/larger than the size sent/);
    await admin.agent
      .post('/api/admin/releases')
      .set('x-csrf-token', admin.token)
      .attach('file', build, 'late.dmg')
      .field('product', APPS)
      .expect(400);
    await admin.agent.post('/api/admin/releases').set('x-csrf-token', admin.token).send({ product: APPS, version: '2.0.0' }).expect(400);
    await admin.agent.post('/api/admin/releases').set('x-csrf-token', admin.token).field('product', APPS).expect(400);
    await admin.agent
      .post('/api/admin/releases')
      .set('x-csrf-token', admin.token)
      .set('content-type', 'text/plain')
      .send('hello')
      .expect(415);
    await eventually(stored, before);
  });

  it('refuses a build for a platform or arch its product does not ship on (a desktop build as a Chrome build), naming the field and keeping nothing', async () => {
    const before = await stored();
    const cases: Array<[string, UploadInput, string, RegExp]> = [
      [
        'desktop build as Chrome',
        { product: APPS, platform: 'chrome', arch: 'universal' },
        'platform',
        /Hitscope for Apps does not ship on Chrome/,
      ],
      ['extension as Linux', { product: BROWSERS, platform: 'linux', arch: 'x64' }, 'platform', /choose one of chrome, firefox, edge/],
      ['extension for x64', { product: BROWSERS, platform: 'firefox', arch: 'x64' }, 'arch', /is built for universal, not x64/],
      ['Windows universal', { product: APPS, platform: 'windows', arch: 'universal' }, 'arch', /built for x64, arm64, not Universal/],
    ];
    for (const [title, input, field, message] of cases) {
      const response = await upload(admin, { version: '2.1.0', ...input });
      expect({ title, status: response.status }).toEqual({ title, status: 400 });
      expect({ title, fields: Object.keys(response.body.fields ?? {}) }).toEqual({ title, fields: [field] });
      expect(response.body.fields[field][0]).toMatch(message);
    }
    expect(await stored()).toEqual(before);
  });

  it('leaves no document and no stored chunks when the client goes away half-way', async () => {
    const before = await stored();
    const fields = { product: APPS, platform: 'windows', arch: 'x64', channel: 'stable', version: '3.0.0', size: String(build.length) };
    const { head, tail, contentType } = multipart(fields, 'Hitscope-3.0.0.exe', build);
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/admin/releases',
      headers: {
        cookie: cookieHeader(admin.agent),
        'x-csrf-token': admin.token,
        'content-type': contentType,
        'content-length': String(head.length + build.length + tail.length),
      },
    });
    client.on('error', () => undefined);
    client.write(head);
    client.write(build.subarray(0, CHUNK + 1000));
    // Wait until the server has written at least one chunk of this build, then go away.
    await eventually(async () => (await stored()).chunks > before.chunks, true);
    client.destroy();
    await eventually(stored, before);
    expect(await db.collection('releases').findOne({ version: '3.0.0' })).toBeNull();
  });
});

describe('downloads', () => {
  const download = (as: SignedUp, id = published.id) => as.agent.get(`/api/releases/${id}/download`).buffer(true).parse(binary);

  it('refuses a signed-in person without a licence (403, saying why) and anonymous callers (401)', async () => {
    const refused = await download(unlicensed).expect(403);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      code: 'LICENCE_REQUIRED',
      message: expect.stringMatching(/valid licence/),
    });
    const anonymous = await request(server()).get(`/api/releases/${published.id}/download`).expect(401);
    expect(anonymous.body).toMatchObject({ code: 'SIGN_IN_REQUIRED', message: expect.stringMatching(/Sign in/) });
  });

  it('sends the exact bytes to a licence holder, as an attachment with its SHA-256 as ETag, and counts it', async () => {
    const response = await download(licensed).expect(200);
    expect(Buffer.compare(response.body as Buffer, build)).toBe(0);
    expect(response.headers).toMatchObject({
      'accept-ranges': 'bytes',
      etag: `"${sha256(build)}"`,
      'content-length': String(build.length),
      'content-type': 'application/x-apple-diskimage',
      'content-disposition': `attachment; filename="Hitscope-1.0.0.dmg"; filename*=UTF-8''Hitscope-1.0.0.dmg`,
      'x-content-type-options': 'nosniff',
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect((await db.collection('releases').findOne({ version: '1.0.0' }))?.downloads).toBe(1);
  });

  it('answers single ranges with 206 and exactly those bytes, suffixes, across chunks, and 416 past the end', async () => {
    const ranged = async (range: string, status: number) => {
      const response = await download(licensed).set('Range', range).expect(status);
      return response;
    };
    const ten = await ranged('bytes=10-19', 206);
    expect(Buffer.compare(ten.body as Buffer, build.subarray(10, 20))).toBe(0);
    expect(ten.headers['content-range']).toBe(`bytes 10-19/${build.length}`);
    expect(ten.headers['content-length']).toBe('10');

    const suffix = await ranged('bytes=-5', 206);
    expect(Buffer.compare(suffix.body as Buffer, build.subarray(build.length - 5))).toBe(0);
    expect(suffix.headers['content-range']).toBe(`bytes ${build.length - 5}-${build.length - 1}/${build.length}`);

    const across = await ranged(`bytes=${CHUNK - 5}-${2 * CHUNK + 4}`, 206);
    expect(Buffer.compare(across.body as Buffer, build.subarray(CHUNK - 5, 2 * CHUNK + 5))).toBe(0);

    const open = await ranged(`bytes=${2 * CHUNK}-`, 206);
    expect(Buffer.compare(open.body as Buffer, build.subarray(2 * CHUNK))).toBe(0);

    const past = await ranged(`bytes=${build.length}-`, 416);
    expect(past.headers['content-range']).toBe(`bytes */${build.length}`);
    // Several ranges: the whole file (allowed by RFC 9110), counted as a download.
    const several = await ranged('bytes=0-1,5-6', 200);
    expect(Buffer.compare(several.body as Buffer, build)).toBe(0);
    // Counted: the full GET before and this one; the ranges not starting at 0 were not.
    expect((await db.collection('releases').findOne({ version: '1.0.0' }))?.downloads).toBe(2);
    await ranged('bytes=0-99', 206);
    expect((await db.collection('releases').findOne({ version: '1.0.0' }))?.downloads).toBe(3);
  });

  it('answers HEAD with the headers only, and If-None-Match with 304, neither counted', async () => {
    const head = await licensed.agent.head(`/api/releases/${published.id}/download`).expect(200);
    expect(head.headers['content-length']).toBe(String(build.length));
    expect(head.headers['accept-ranges']).toBe('bytes');
    await download(licensed)
      .set('If-None-Match', `"${sha256(build)}"`)
      .expect(304);
    expect((await db.collection('releases').findOne({ version: '1.0.0' }))?.downloads).toBe(3);
  });

  it('refuses ids that are not release ids (path tricks included) with 400/404, never a file', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '..%2F', '%2e%2e', 'etc', '0'.repeat(24), `${published.id}%00`]) {
      const response = await licensed.agent.get(`/api/releases/${id}/download`);
      expect({ id, status: response.status }).toEqual({ id, status: id === '0'.repeat(24) ? 404 : 400 });
    }
    const traversal = await licensed.agent.get('/api/releases/../../etc/passwd/download');
    expect([400, 404]).toContain(traversal.status);
    expect(traversal.text).not.toMatch(/root:/);
    for (const query of ['product=..%2F..%2Fetc%2Fpasswd', 'product=', '', 'product[$ne]=x']) {
      const response = await request(server()).get(`/api/releases/latest?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
  });
});

describe('the apps: update check and key-authorised downloads', () => {
  const check = (query: string, key?: string) => {
    const req = request(server()).get(`/api/v1/releases/latest?${query}`);
    return key ? req.set('Authorization', `License ${key}`) : req;
  };
  const base = `product=${APPS}&platform=macos&arch=universal`;

  it('offers the newest release to an older version, nothing to the same one, and says whether the key may download', async () => {
    const older = (await check(`${base}&current=0.9.0`).expect(200)).body as UpdateCheckResponse;
    expect(older).toEqual({
      updateAvailable: true,
      entitled: null,
      latest: {
        version: '1.0.0',
        notes: '## First\n\nHello.',
        sha256: sha256(build),
        size: build.length,
        format: 'dmg',
        signature: published.signature,
        url: `/api/v1/releases/${published.id}/download`,
      },
    });
    expect(((await check(`${base}&current=1.0.0`).expect(200)).body as UpdateCheckResponse).updateAvailable).toBe(false);
    expect(((await check(`${base}&current=1.0.0-beta.3`).expect(200)).body as UpdateCheckResponse).updateAvailable).toBe(true);
    expect(((await check(`${base}&current=1.0.0`, licenceKey).expect(200)).body as UpdateCheckResponse).entitled).toBe(true);
    expect(((await check(`${base}&current=1.0.0`, 'HSA-00000-00000-00000-00000-0').expect(200)).body as UpdateCheckResponse).entitled).toBe(
      false,
    );
    const none = (await check(`product=${APPS}&platform=linux&arch=arm64&current=1.0.0`).expect(200)).body as UpdateCheckResponse;
    expect(none).toEqual({ updateAvailable: false, entitled: null, latest: null });
  });

  it('validates every parameter strictly', async () => {
    for (const query of [
      `product=${APPS}&platform=macos`,
      `${base}&current=1.0`,
      `${base}&current=..%2F..%2Fetc%2Fpasswd`,
      `${base}&channel=nightly`,
      `product=${APPS}&platform=..%2F..%2Fetc&arch=x64`,
      `product=../../etc/passwd&platform=macos&arch=x64`,
      `${base}&extra=1`,
      // Not a target the product ships on (lib/releases/targets.ts).
      `product=${APPS}&platform=chrome&arch=universal`,
      `product=${BROWSERS}&platform=chrome&arch=x64`,
    ]) {
      const response = await check(query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
  });

  it('downloads with the licence key in the Authorization header: 401 without, 403 with a key that does not allow it', async () => {
    const url = `/api/v1/releases/${published.id}/download`;
    const ok = await request(server()).get(url).set('Authorization', `License ${licenceKey}`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(ok.body as Buffer, build)).toBe(0);
    const part = await request(server())
      .get(url)
      .set('Authorization', `License ${licenceKey}`)
      .set('Range', 'bytes=10-19')
      .buffer(true)
      .parse(binary)
      .expect(206);
    expect(Buffer.compare(part.body as Buffer, build.subarray(10, 20))).toBe(0);
    expect((await request(server()).get(url).expect(401)).body.code).toBe('LICENCE_KEY_REQUIRED');
    await request(server()).get(url).set('Authorization', 'Bearer whatever').expect(401);
    await request(server()).get(url).set('Authorization', 'License HSA-00000-00000-00000-00000-0').expect(403);
    await request(server())
      .get('/api/v1/releases/..%2F..%2Fetc%2Fpasswd/download')
      .set('Authorization', `License ${licenceKey}`)
      .expect(400);
  });
});

describe('yanking', () => {
  it('takes a release out of the listings and answers its downloads 404; unyanking brings it back; both audited', async () => {
    const older = (await upload(admin, { version: '0.9.0' }, build.subarray(0, 1000), 'Hitscope-0.9.0.dmg').expect(201))
      .body as AdminRelease;
    expect((await latest()).releases.map((release) => release.version)).toEqual(['1.0.0']);

    const anonymous = request.agent(server());
    const anonymousToken = await csrfToken(anonymous);
    await anonymous.post(`/api/admin/releases/${published.id}/yank`).set('x-csrf-token', anonymousToken).expect(401);
    await licensed.agent.post(`/api/admin/releases/${published.id}/yank`).set('x-csrf-token', licensed.token).expect(403);
    const yanked = await admin.agent.post(`/api/admin/releases/${published.id}/yank`).set('x-csrf-token', admin.token).expect(200);
    expect(yanked.body).toMatchObject({ status: 'yanked', yankedAt: expect.any(String) });

    expect((await latest()).releases.map((release) => release.version)).toEqual(['0.9.0']);
    await licensed.agent.get(`/api/releases/${published.id}/download`).expect(404);
    await request(server()).get(`/api/v1/releases/${published.id}/download`).set('Authorization', `License ${licenceKey}`).expect(404);
    const update = (
      await request(server()).get(`/api/v1/releases/latest?product=${APPS}&platform=macos&arch=universal&current=0.9.0`).expect(200)
    ).body as UpdateCheckResponse;
    expect(update).toMatchObject({ updateAvailable: false, latest: { version: '0.9.0' } });

    const list = (await admin.agent.get('/api/admin/releases').expect(200)).body as { releases: AdminRelease[] };
    expect(list.releases.map((release) => [release.version, release.status])).toEqual(
      expect.arrayContaining([
        ['1.0.0', 'yanked'],
        ['0.9.0', 'published'],
      ]),
    );

    await admin.agent.post(`/api/admin/releases/${published.id}/unyank`).set('x-csrf-token', admin.token).expect(200);
    expect((await latest()).releases.map((release) => release.version)).toEqual(['1.0.0']);
    await admin.agent.post(`/api/admin/releases/${older.id}/yank`).set('x-csrf-token', admin.token).expect(200);
    await admin.agent.post('/api/admin/releases/..%2F..%2Fetc/yank').set('x-csrf-token', admin.token).expect(400);
    await admin.agent
      .post(`/api/admin/releases/${'0'.repeat(24)}/yank`)
      .set('x-csrf-token', admin.token)
      .expect(404);

    const actions = await db
      .collection('audit_log')
      .find({ 'target.id': published.id })
      .sort({ at: 1, _id: 1 })
      .map((entry) => entry.action as string)
      .toArray();
    expect(actions).toEqual(['release.publish', 'release.yank', 'release.unyank']);
  });
});

describe('free downloads (the catalogue switch per product)', () => {
  const switchTo = (as: SignedUp, downloadsFree: unknown, slug = APPS) =>
    as.agent.put(`/api/admin/catalogue/products/${slug}`).set('x-csrf-token', as.token).send({ downloadsFree });
  const anonymousDownload = (id = published.id) => request(server()).get(`/api/releases/${id}/download`).buffer(true).parse(binary);
  const switches = () => db.collection('audit_log').countDocuments({ action: 'catalogue.product.downloads' });
  const counted = async () => (await db.collection('releases').findOne({ version: '1.0.0', product: APPS }))?.downloads as number;

  it('is for administrators only, validated with field messages', async () => {
    const anonymous = request.agent(server());
    const token = await csrfToken(anonymous);
    await anonymous.put(`/api/admin/catalogue/products/${APPS}`).set('x-csrf-token', token).send({ downloadsFree: true }).expect(401);
    await switchTo(unlicensed, true).expect(403);
    await switchTo(licensed, true).expect(403);
    await admin.agent.put(`/api/admin/catalogue/products/${APPS}`).send({ downloadsFree: true }).expect(403); // no CSRF token
    await unlicensed.agent.get('/api/admin/catalogue/products').expect(403);

    const notBoolean = await switchTo(admin, 'yes').expect(400);
    expect(notBoolean.body.fields).toEqual({ downloadsFree: ['downloadsFree must be true or false'] });
    const missing = await switchTo(admin, undefined).expect(400);
    expect(Object.keys(missing.body.fields)).toEqual(['downloadsFree']);
    const unknownProduct = await switchTo(admin, true, 'hitscope-for-toasters').expect(400);
    expect(Object.keys(unknownProduct.body.fields)).toEqual(['slug']);
    const extra = await admin.agent
      .put(`/api/admin/catalogue/products/${APPS}`)
      .set('x-csrf-token', admin.token)
      .send({ downloadsFree: true, name: 'Free stuff' })
      .expect(400);
    expect(Object.keys(extra.body.fields)).toEqual(['name']);

    expect(await switches()).toBe(0);
    const catalogue = (await request(server()).get('/api/catalogue').expect(200)).body as CatalogueResponse;
    expect(catalogue.products.every((product) => !product.downloadsFree)).toBe(true);
  });

  it('off (the default): a person without a licence gets 403, nobody signed in 401, an app without a key 401', async () => {
    await anonymousDownload().expect(401);
    await unlicensed.agent.get(`/api/releases/${published.id}/download`).expect(403);
    await request(server()).get(`/api/v1/releases/${published.id}/download`).expect(401);
  });

  it('on: anybody downloads the exact bytes, counted, with ranges; yanked builds stay refused; the switch is audited once', async () => {
    const on = await switchTo(admin, true).expect(200);
    expect(on.body).toEqual({ slug: APPS, name: 'Hitscope for Apps', kind: 'desktop app', licencePrefix: 'HSA', downloadsFree: true });
    const adminList = (await admin.agent.get('/api/admin/catalogue/products').expect(200)) as request.Response;
    expect(adminList.headers['cache-control']).toBe('private, no-store');
    expect((adminList.body as AdminProductList).products.map((product) => [product.slug, product.downloadsFree])).toEqual([
      [APPS, true],
      [BROWSERS, false],
    ]);
    const catalogue = (await request(server()).get('/api/catalogue').expect(200)).body as CatalogueResponse;
    expect(catalogue.products.find((product) => product.slug === APPS)?.downloadsFree).toBe(true);

    const before = await counted();
    const whole = await anonymousDownload().expect(200);
    expect(Buffer.compare(whole.body as Buffer, build)).toBe(0);
    expect(whole.headers).toMatchObject({ etag: `"${sha256(build)}"`, 'content-length': String(build.length) });
    expect(await counted()).toBe(before + 1);

    const part = await anonymousDownload()
      .set('Range', `bytes=${CHUNK - 5}-${CHUNK + 4}`)
      .expect(206);
    expect(Buffer.compare(part.body as Buffer, build.subarray(CHUNK - 5, CHUNK + 5))).toBe(0);
    expect(part.headers['content-range']).toBe(`bytes ${CHUNK - 5}-${CHUNK + 4}/${build.length}`);
    await anonymousDownload().set('Range', `bytes=${build.length}-`).expect(416);
    expect(await counted()).toBe(before + 1); // a later range does not count

    const signedInWithoutLicence = await unlicensed.agent
      .get(`/api/releases/${published.id}/download`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(Buffer.compare(signedInWithoutLicence.body as Buffer, build)).toBe(0);
    const app = await request(server()).get(`/api/v1/releases/${published.id}/download`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(app.body as Buffer, build)).toBe(0);
    expect(await counted()).toBe(before + 3);

    // The yanked 0.9.0 of the suite above: withdrawn, whoever asks and whatever the switch says.
    const yanked = await db.collection('releases').findOne({ product: APPS, version: '0.9.0' });
    expect(yanked?.status).toBe('yanked');
    await anonymousDownload(String(yanked!._id)).expect(404);

    // Switching to what is stored already changes nothing and records nothing.
    await switchTo(admin, true).expect(200);
    const entries = await db.collection('audit_log').find({ action: 'catalogue.product.downloads' }).toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { email: ADMIN },
      target: { type: 'product', id: APPS, label: 'Hitscope for Apps' },
      before: { downloadsFree: false },
      after: { downloadsFree: true },
    });
  });

  it('off again: the licence is needed again at once, and the second switch is audited', async () => {
    await switchTo(admin, false).expect(200);
    await anonymousDownload().expect(401);
    await unlicensed.agent.get(`/api/releases/${published.id}/download`).expect(403);
    await request(server()).get(`/api/v1/releases/${published.id}/download`).expect(401);
    await licensed.agent.get(`/api/releases/${published.id}/download`).expect(200);
    const last = await db.collection('audit_log').find({ action: 'catalogue.product.downloads' }).sort({ at: -1, _id: -1 }).limit(1).next();
    expect(last).toMatchObject({ before: { downloadsFree: true }, after: { downloadsFree: false } });
    expect(await switches()).toBe(2);
  });
});

describe('signing-key rotation', () => {
  it('keeps the key of a published build in the JWKS past the 40 days of leases; an unused retired key leaves on time', async () => {
    const keys = running.app.get(SigningKeysService);
    const kidsAt = async (date: Date) => (await keys.jwks(date)).keys.map((jwk) => jwk.kid);
    const signedWith = published.signature.kid;
    const first = await admin.agent.post('/api/admin/licensing/signing-keys/rotate').set('x-csrf-token', admin.token).expect(200);
    expect(first.body.retired).toBe(signedWith);
    // Nothing is signed with the next key before it is rotated out in turn.
    const second = await admin.agent.post('/api/admin/licensing/signing-keys/rotate').set('x-csrf-token', admin.token).expect(200);
    const unused = second.body.retired as string;

    const later = new Date(Date.now() + 41 * 24 * 60 * 60 * 1000);
    expect(await kidsAt(later)).toContain(signedWith);
    expect(await kidsAt(later)).not.toContain(unused);
    const listed = (await admin.agent.get('/api/admin/licensing/signing-keys').expect(200)).body as AdminSigningKeyList;
    expect(listed.keys.find((key) => key.kid === signedWith)).toMatchObject({ current: false, published: true });

    // Yanked, the build no longer holds its key in the JWKS (past the lease period).
    const sameKid = await db.collection('releases').find({ 'signature.kid': signedWith, status: 'published' }).toArray();
    for (const release of sameKid)
      await admin.agent
        .post(`/api/admin/releases/${String(release._id)}/yank`)
        .set('x-csrf-token', admin.token)
        .expect(200);
    expect(await kidsAt(later)).not.toContain(signedWith);
    expect(await kidsAt(new Date())).toContain(signedWith); // still within its 40 days
    for (const release of sameKid)
      await admin.agent
        .post(`/api/admin/releases/${String(release._id)}/unyank`)
        .set('x-csrf-token', admin.token)
        .expect(200);
  });
});

describe('builds in GridFS', () => {
  const bigger = randomBytes(10 * CHUNK + 321);
  const fileOf = async (version: string) =>
    (await db.collection('releases').findOne({ version })) as unknown as { _id: ObjectId; file: { storageId: string } };
  const ranges = (size: number) => [
    `bytes=${size - CHUNK + 10}-${size - 1}`,
    'bytes=-100',
    `bytes=${size - 2 * CHUNK - 5}-`,
    `bytes=${CHUNK}-`,
  ];

  it('serves a later, bigger build whole and at its end (an app resuming its update download), from chunks with ids of their own', async () => {
    const later = (await upload(admin, { platform: 'windows', arch: 'arm64', version: '5.0.0' }, bigger, 'Hitscope-5.0.0.exe').expect(201))
      .body as AdminRelease;
    const { storageId } = (await fileOf('5.0.0')).file;
    const ids = await db
      .collection('releases.chunks')
      .find({ files_id: new ObjectId(storageId) })
      .map((chunk) => chunk._id as unknown)
      .toArray();
    expect(ids.sort()).toEqual(Array.from({ length: 11 }, (_, n) => `${storageId}:${n}`).sort());

    const full = await licensed.agent.get(`/api/releases/${later.id}/download`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(full.body as Buffer, bigger)).toBe(0);
    for (const range of ranges(bigger.length)) {
      const response = await request(server())
        .get(`/api/v1/releases/${later.id}/download`)
        .set('Authorization', `License ${licenceKey}`)
        .set('Range', range)
        .buffer(true)
        .parse(binary)
        .expect(206);
      const [start, end] = /bytes (\d+)-(\d+)\//
        .exec(response.headers['content-range'] as string)!
        .slice(1)
        .map(Number);
      expect({ range, equal: Buffer.compare(response.body as Buffer, bigger.subarray(start, end + 1)) }).toEqual({ range, equal: 0 });
    }
  });

  it("still serves a build stored by the driver's own uploader (chunks with random ids), whole and in ranges", async () => {
    const legacy = (await upload(admin, { platform: 'windows', arch: 'arm64', version: '4.0.0' }, bigger, 'Hitscope-4.0.0.exe').expect(201))
      .body as AdminRelease;
    const release = await fileOf('4.0.0');
    const bucket = new GridFSBucket(db, { bucketName: 'releases' });
    const stream = bucket.openUploadStream('Hitscope-4.0.0.exe', {
      metadata: { contentType: 'application/octet-stream', cacheControl: null },
    });
    await new Promise<void>((resolve, reject) => stream.once('finish', resolve).once('error', reject).end(bigger));
    await db.collection('releases').updateOne({ _id: release._id }, { $set: { 'file.storageId': stream.id.toString() } });
    await bucket.delete(new ObjectId(release.file.storageId));

    const full = await licensed.agent.get(`/api/releases/${legacy.id}/download`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(full.body as Buffer, bigger)).toBe(0);
    for (const range of ranges(bigger.length)) {
      const response = await licensed.agent
        .get(`/api/releases/${legacy.id}/download`)
        .set('Range', range)
        .buffer(true)
        .parse(binary)
        .expect(206);
      const [start, end] = /bytes (\d+)-(\d+)\//
        .exec(response.headers['content-range'] as string)!
        .slice(1)
        .map(Number);
      expect({ range, equal: Buffer.compare(response.body as Buffer, bigger.subarray(start, end + 1)) }).toEqual({ range, equal: 0 });
    }
  });
});

/** Collects a response body as bytes, whatever its content type. */
function binary(res: unknown, callback: (error: Error | null, body: Buffer) => void): void {
  const response = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
  response.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

describe('package formats: a .deb and an .rpm of one version for linux/x64', () => {
  const linux = { platform: 'linux', arch: 'x64', version: '2.0.0' };
  const deb = randomBytes(4096);
  const rpm = randomBytes(5000);
  let debRelease: AdminRelease;
  let rpmRelease: AdminRelease;
  const check = (query: string) => request(server()).get(`/api/v1/releases/latest?product=${APPS}&platform=linux&arch=x64&${query}`);

  it('stores both, the format read from the file name or given, and refuses a second of either', async () => {
    debRelease = (await upload(admin, linux, deb, 'hitscope-for-apps_2.0.0_amd64.deb').expect(201)).body as AdminRelease;
    rpmRelease = (await upload(admin, { ...linux, format: 'rpm' }, rpm, 'hitscope-for-apps-2.0.0-1.x86_64.rpm').expect(201))
      .body as AdminRelease;
    expect([debRelease.format, rpmRelease.format]).toEqual(['deb', 'rpm']);
    expect(rpmRelease.file.contentType).toBe('application/x-rpm');
    const before = await stored();
    const again = await upload(admin, linux, deb, 'hitscope-for-apps_2.0.0_amd64-rebuilt.deb').expect(409);
    expect(again.body.code).toBe('RELEASE_VERSION_EXISTS');
    expect(await stored()).toEqual(before);
  });

  it('refuses a format that is not one, or that the file name contradicts, naming the field and keeping nothing', async () => {
    const before = await stored();
    const unknown = await upload(admin, { ...linux, version: '2.0.1', format: 'appimage' }, deb, 'x.AppImage').expect(400);
    expect(unknown.body.fields.format).toEqual(['format must be one of deb, rpm, dmg, msi, exe, zip, xpi']);
    const contradicted = await upload(admin, { ...linux, version: '2.0.1', format: 'rpm' }, deb, 'hitscope_2.0.1_amd64.deb').expect(400);
    expect(contradicted.body.fields.format).toEqual(['format is rpm but the file hitscope_2.0.1_amd64.deb is a .deb']);
    expect(await stored()).toEqual(before);
  });

  it('lists both packages as the latest for linux/x64, the .deb first', async () => {
    const linuxReleases = (await latest()).releases.filter((release) => release.platform === 'linux');
    expect(linuxReleases.map((release) => [release.version, release.format, release.file.sha256])).toEqual([
      ['2.0.0', 'deb', sha256(deb)],
      ['2.0.0', 'rpm', sha256(rpm)],
    ]);
  });

  it('answers an update check with the format the app installs; without one, the platform’s usual .deb', async () => {
    const asRpm = (await check('format=rpm&current=1.0.0').expect(200)).body as UpdateCheckResponse;
    expect(asRpm.latest).toMatchObject({
      version: '2.0.0',
      format: 'rpm',
      sha256: sha256(rpm),
      url: `/api/v1/releases/${rpmRelease.id}/download`,
    });
    const asDeb = (await check('format=deb&current=1.0.0').expect(200)).body as UpdateCheckResponse;
    expect(asDeb.latest).toMatchObject({ format: 'deb', sha256: sha256(deb) });
    const unsaid = (await check('current=1.0.0').expect(200)).body as UpdateCheckResponse;
    expect(unsaid.latest).toMatchObject({ format: 'deb', sha256: sha256(deb) });
    expect(((await check('format=msi&current=1.0.0').expect(200)).body as UpdateCheckResponse).latest).toBeNull();
    expect((await check('format=AppImage').expect(400)).body.fields.format).toEqual([
      'format must be one of deb, rpm, dmg, msi, exe, zip, xpi',
    ]);
  });

  it('reads the format of a release stored before formats from its file name', async () => {
    const legacy = {
      product: APPS,
      platform: 'linux',
      arch: 'arm64',
      channel: 'stable',
      version: '1.9.0',
      notes: '',
      file: {
        storageId: 'none',
        filename: 'hitscope-for-apps-1.9.0-1.aarch64.rpm',
        size: 1,
        sha256: sha256(Buffer.from('x')),
        contentType: 'application/x-rpm',
      },
      signature: { kid: published.signature.kid, value: published.signature.value },
      status: 'published',
      publishedAt: new Date(),
      yankedAt: null,
      downloads: 0,
    };
    const { insertedId } = await db.collection('releases').insertOne(legacy);
    const answer = (await request(server()).get(`/api/v1/releases/latest?product=${APPS}&platform=linux&arch=arm64&format=rpm`).expect(200))
      .body as UpdateCheckResponse;
    expect(answer.latest).toMatchObject({ version: '1.9.0', format: 'rpm' });

    await db.collection('releases').deleteOne({ _id: insertedId });
  });
});

describe('a database from before package formats', () => {
  it('drops the old unique index at start-up, so both packages of one version can be stored', async () => {
    const uri = testDatabaseUri('releases_formats');
    const client = await MongoClient.connect(uri);
    try {
      const releases = client.db().collection('releases');
      await releases.createIndex({ product: 1, platform: 1, arch: 1, channel: 1, version: 1 }, { unique: true });
      await releases.insertOne({
        product: APPS,
        platform: 'linux',
        arch: 'x64',
        channel: 'stable',
        version: '0.9.0',
        file: { filename: 'a_0.9.0_amd64.deb' },
      });
      const app = await createApp(
        loadConfig({
          NODE_ENV: 'test',
          MONGODB_URI: uri,
          LOG_LEVEL: 'error',
          PORT: '0',
          AUTH_SECRET: 'releases-suite-secret-0123456789-abcdefghijklmnop',
        }),
      );
      try {
        const names = (await releases.indexes()).map((index) => index.name);
        expect(names).not.toContain('product_1_platform_1_arch_1_channel_1_version_1');
        expect(await releases.findOne({ version: '0.9.0' })).toMatchObject({ format: 'deb' });
        // The same version as an .rpm is now a release of its own.
        await releases.insertOne({
          product: APPS,
          platform: 'linux',
          arch: 'x64',
          channel: 'stable',
          version: '0.9.0',
          format: 'rpm',
          file: { filename: 'a-0.9.0-1.x86_64.rpm' },
        });
        await expect(
          releases.insertOne({
            product: APPS,
            platform: 'linux',
            arch: 'x64',
            channel: 'stable',
            version: '0.9.0',
            format: 'rpm',
            file: { filename: 'b.rpm' },
          }),
        ).rejects.toThrow(/duplicate key/);
      } finally {
        await app.close();
      }
    } finally {
      await client.close();
    }
  });
});
