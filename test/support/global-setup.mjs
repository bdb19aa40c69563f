// Jest global setup: one real database and one real app process (the production build) shared by
// the end-to-end suites. Each in-process suite uses a database name of its own on the same server.
// The database is MONGODB_URI when set; else, with HITSCOPE_TEST_ENGINE=postgresql (`npm run
// test:server:pool`), FerretDB on a throw-away PostgreSQL server reached through a pool of
// connections; else the embedded FerretDB on SQLite, as `npm start` runs it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/free-port.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const E2E_ADMIN_EMAIL = 'admin@hitscope.test';
/** Connections per client in the pool run: the driver's default is 100; this is plenty for one app. */
const POOL_SIZE = 20;

export { freePort };

export default async function globalSetup() {
  if (!existsSync(join(root, 'dist/app/src/database/embedded-database.js'))) {
    throw new Error('The end-to-end suites run against the production build: run `npm run build` first (npm test does).');
  }
  const { startEmbeddedDatabase } = await import(join(root, 'dist/app/src/database/embedded-database.js'));

  let mongodbUri = process.env.MONGODB_URI;
  if (!mongodbUri && process.env.HITSCOPE_TEST_ENGINE === 'postgresql') {
    const started = Date.now();
    const { startPostgresql } = await import(join(root, 'scripts/postgresql.mjs'));
    const postgresql = await startPostgresql({ log: console.log });
    globalThis.__HITSCOPE_POSTGRESQL__ = postgresql;
    const database = await startEmbeddedDatabase({ dataDir: postgresql.dataDir, postgresqlUrl: postgresql.url, log: console.log });
    globalThis.__HITSCOPE_DB__ = database;
    // A pool of connections, as several instances (or MongoDB) would have: nothing may rely on the
    // one connection the app otherwise takes to FerretDB (docs/database.md).
    mongodbUri = `${database.uri}?maxPoolSize=${POOL_SIZE}`;
    console.log(`\nFerretDB on PostgreSQL ready in ${Date.now() - started} ms at ${mongodbUri}`);
  } else if (!mongodbUri) {
    const started = Date.now();
    const database = await startEmbeddedDatabase({ dataDir: await mkdtemp(join(tmpdir(), 'hitscope-test-db-')), log: console.log });
    globalThis.__HITSCOPE_DB__ = database;
    mongodbUri = database.uri;
    console.log(`\nEmbedded test database ready in ${Date.now() - started} ms at ${mongodbUri}`);
  }
  process.env.HITSCOPE_TEST_MONGODB_URI = mongodbUri;

  // stripe-mock on loopback for the billing suites (they point STRIPE_API_BASE at it).
  const { startStripeMock } = await import(join(root, 'scripts/stripe-mock.mjs'));
  const stripeMock = await startStripeMock(console.log);
  globalThis.__HITSCOPE_STRIPE_MOCK__ = stripeMock;
  process.env.HITSCOPE_TEST_STRIPE_API_BASE = stripeMock.url;

  const port = await freePort();
  const appUrl = new URL(mongodbUri);
  appUrl.pathname = `/hitscope_e2e_${Date.now().toString(36)}`;
  const child = spawn(process.execPath, [join(root, 'dist/app/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MONGODB_URI: appUrl.toString(),
      ADMIN_EMAILS: E2E_ADMIN_EMAIL,
      LOG_LEVEL: 'warn',
      // Dozens of accounts sign up from 127.0.0.1 in these suites; the limits themselves are tested
      // at their real values in test/e2e/rate-limit.e2e-spec.ts.
      RATE_LIMIT_MULTIPLIER: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  globalThis.__HITSCOPE_APP__ = child;
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited with code ${child.exitCode} during start-up`);
    try {
      const response = await fetch(`${baseUrl}/health/ready`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('The app did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.env.HITSCOPE_E2E_URL = baseUrl;
  process.env.HITSCOPE_E2E_MONGODB_URI = appUrl.toString();
  process.env.HITSCOPE_E2E_ADMIN_EMAIL = E2E_ADMIN_EMAIL;
}
