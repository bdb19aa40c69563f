/**
 * Companion builds published as releases: what `npm run build` writes to dist/companions
 * (packages.json + packages) goes through the releases service on a fresh site's first start and
 * with `npm run publish:companions`, stored, hashed and signed like an upload, idempotently, and
 * safely when two instances start at once. Real apps on the real database.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import type { LicensingJwks } from '../../lib/api/licences.js';
import type { LatestReleasesResponse } from '../../lib/api/releases.js';
import { verifyDownloadedBuild } from '../../lib/licensing/release-signature.js';
import { CompanionBuildsPublisher, CompanionPackagesError, readCompanionPackages } from '../../src/releases/companion-builds.js';
import { startInstance, type TestInstance } from '../support/test-instance.js';
import { testDatabaseUri } from '../support/test-database.js';

const BROWSERS = 'hitscope-for-browsers';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A build folder as scripts/build-extension.mjs writes it: two packages and their list. */
function buildFolder(
  version: string,
  rows: Array<{ platform: string; extension: string }> = [
    { platform: 'chrome', extension: 'zip' },
    { platform: 'firefox', extension: 'xpi' },
  ],
) {
  const dir = mkdtempSync(join(tmpdir(), 'hitscope-companions-'));
  const files = new Map<string, Buffer>();
  const packages = rows.map(({ platform, extension }) => {
    const data = randomBytes(70_000 + Math.floor(Math.random() * 1000));
    const file = `${BROWSERS}-${version}-${platform}.${extension}`;
    writeFileSync(join(dir, file), data);
    files.set(platform, data);
    return { product: BROWSERS, platform, arch: 'universal', version, file, size: data.length, sha256: sha256(data) };
  });
  writeFileSync(join(dir, 'packages.json'), JSON.stringify({ packages }));
  return { dir, files, packages };
}

const folders: string[] = [];
const instances: TestInstance[] = [];
let mongo: MongoClient;

async function freshDatabase(name: string): Promise<{ uri: string; db: Db }> {
  const uri = testDatabaseUri(`${name}-${randomBytes(3).toString('hex')}`);
  return { uri, db: mongo.db(new URL(uri).pathname.slice(1)) };
}

async function start(uri: string, dir: string, publish: 'on' | 'off' = 'on') {
  const instance = await startInstance(uri, { PUBLISH_BUNDLED_BUILDS: publish, COMPANION_BUILDS_DIR: dir });
  instances.push(instance);
  return instance;
}
const publisherOf = (instance: TestInstance) => instance.running.app.get(CompanionBuildsPublisher);

beforeAll(async () => {
  mongo = await MongoClient.connect(process.env.HITSCOPE_E2E_MONGODB_URI!, { maxPoolSize: 2 });
});

afterAll(async () => {
  for (const instance of instances) await instance.running.close();
  await mongo.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('companion builds as releases', () => {
  it('a fresh site publishes the bundled build on first start, signed, and downloads give the same bytes', async () => {
    const { dir, files, packages } = buildFolder('0.3.0');
    folders.push(dir);
    const { uri } = await freshDatabase('companions-first');
    const instance = await start(uri, dir);
    const outcomes = await publisherOf(instance).startUp;
    expect(outcomes.map((each) => [each.package.platform, each.outcome])).toEqual([
      ['chrome', 'published'],
      ['firefox', 'published'],
    ]);

    const server = instance.running.app.getHttpServer();
    const latest = (await request(server).get(`/api/releases/latest?product=${BROWSERS}`).expect(200)).body as LatestReleasesResponse;
    expect(latest.releases.map((release) => [release.platform, release.arch, release.version, release.file.sha256])).toEqual(
      packages.map((row) => [row.platform, 'universal', '0.3.0', row.sha256]),
    );
    // The download needs a licence unless downloads are free; the update check's key path is open to nobody without one.
    await request(server).get(`/api/releases/${latest.releases[0]!.id}/download`).expect(401);
    const jwks = (await request(server).get('/.well-known/hitscope-licensing-keys.json').expect(200)).body as LicensingJwks;
    for (const release of latest.releases) {
      const bytes = files.get(release.platform)!;
      expect(
        await verifyDownloadedBuild(
          new Uint8Array(bytes),
          { sha256: release.file.sha256, size: release.file.size, signature: release.signature },
          jwks,
        ),
      ).toEqual({
        ok: true,
      });
    }
  });

  it('two instances starting at once on a fresh database publish each package once and leave no stray file', async () => {
    const { dir } = buildFolder('0.4.0');
    folders.push(dir);
    const { uri, db } = await freshDatabase('companions-race');
    const [first, second] = await Promise.all([start(uri, dir), start(uri, dir)]);
    const outcomes = [...(await publisherOf(first).startUp), ...(await publisherOf(second).startUp)];
    expect(outcomes.filter((each) => each.outcome === 'published')).toHaveLength(2);
    expect(outcomes.every((each) => each.outcome !== 'published' || each.releaseId)).toBe(true);
    const releases = await db.collection('releases').find({ product: BROWSERS }).toArray();
    expect(releases.map((release) => release.platform).sort()).toEqual(['chrome', 'firefox']);
    // Exactly the two builds' files in GridFS: what a losing instance stored was deleted again.
    const stored = await db.collection('releases.files').find({}).toArray();
    expect(stored.map((file) => String(file._id)).sort()).toEqual(releases.map((release) => String(release.file.storageId)).sort());
  });

  it('adds nothing to a site that has releases of the product, and the command publishes new versions idempotently', async () => {
    const first = buildFolder('1.0.0');
    folders.push(first.dir);
    const { uri, db } = await freshDatabase('companions-command');
    const instance = await start(uri, first.dir, 'off');
    const publisher = publisherOf(instance);
    expect((await publisher.publish(first.dir)).map((each) => each.outcome)).toEqual(['published', 'published']);
    // Run again: every version exists, nothing changes.
    expect((await publisher.publish(first.dir)).map((each) => each.outcome)).toEqual(['exists', 'exists']);
    // On start-up, a product with releases is left alone, even with a newer build.
    const newer = buildFolder('1.1.0');
    folders.push(newer.dir);
    expect((await publisher.publish(newer.dir, { onlyNewProducts: true })).map((each) => each.outcome)).toEqual(['skipped', 'skipped']);
    expect(await db.collection('releases').countDocuments({ product: BROWSERS })).toBe(2);

    // The command line: the same publisher, on the same database.
    const cli = (args: string[]) =>
      spawnSync(process.execPath, ['dist/app/src/cli.js', 'publish-companions', ...args], {
        cwd: process.cwd(),
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'test', MONGODB_URI: uri, LOG_LEVEL: 'error' },
        timeout: 60_000,
      });
    const published = cli(['--dir', newer.dir, '--channel', 'beta', '--notes', 'Consent timeline']);
    expect(published.stderr).toBe('');
    expect(published.status).toBe(0);
    expect(published.stdout).toContain(`Published ${BROWSERS} 1.1.0 for chrome/universal`);
    expect(published.stdout).toContain(`Published ${BROWSERS} 1.1.0 for firefox/universal`);
    const again = cli(['--dir', newer.dir, '--channel', 'beta']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Already published, skipped');
    const beta = await db.collection('releases').find({ product: BROWSERS, version: '1.1.0' }).toArray();
    expect(beta.map((release) => [release.channel, release.notes])).toEqual([
      ['beta', 'Consent timeline'],
      ['beta', 'Consent timeline'],
    ]);
    expect(cli(['--channel', 'nightly']).status).toBe(2);
  });

  it('refuses a package changed since it was built, and a list that is not one, storing nothing', async () => {
    const { dir, packages } = buildFolder('2.0.0', [{ platform: 'chrome', extension: 'zip' }]);
    folders.push(dir);
    writeFileSync(join(dir, packages[0]!.file), randomBytes(packages[0]!.size));
    const { uri, db } = await freshDatabase('companions-bad');
    const instance = await start(uri, dir, 'off');
    await expect(publisherOf(instance).publish(dir)).rejects.toThrow(/does not have the SHA-256 its build recorded/);
    expect(await db.collection('releases').countDocuments({})).toBe(0);
    expect(await db.collection('releases.files').countDocuments({})).toBe(0);

    writeFileSync(join(dir, 'packages.json'), JSON.stringify({ packages: [{ ...packages[0], file: '../etc/passwd' }] }));
    expect(() => readCompanionPackages(dir)).toThrow(CompanionPackagesError);
    writeFileSync(join(dir, 'packages.json'), JSON.stringify({ packages: [{ ...packages[0], platform: 'amiga' }] }));
    expect(() => readCompanionPackages(dir)).toThrow(/platform must be one of/);
    expect(readCompanionPackages(join(dir, 'nowhere'))).toEqual([]);
  });
});
