import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MongoClient } from 'mongodb';
import { freePort } from '../support/oidc-test-provider.js';
import { RoundRobinProxy } from '../support/round-robin-proxy.js';
import { browserServerDatabaseUri } from './fixtures.js';

/**
 * Two instances of the production build on one database behind a round-robin proxy, as several
 * instances behind a load balancer run: the database is FerretDB on a throw-away PostgreSQL server
 * reached through a pool of connections (what the Jest pool run uses), or, on a machine without
 * PostgreSQL, a database of its own on the browser server's embedded FerretDB. CI requires
 * PostgreSQL (HITSCOPE_REQUIRE_POSTGRESQL=1): there a missing server fails the suite.
 */
export interface TwoInstances {
  /** The proxy's origin: PUBLIC_URL of both instances. */
  origin: string;
  databaseUri: string;
  engine: 'postgresql' | 'sqlite';
  proxy: RoundRobinProxy;
  /** Both instances take payments against this stripe-mock, and verify webhooks with this secret. */
  stripe: { mockUrl: string; webhookSecret: string };
  stop(): Promise<void>;
}

export const TWO_INSTANCES_ADMIN = { name: 'Fleet Admin', email: 'fleet-admin@hitscope.test', password: 'two instances admin passphrase' };

interface Stoppable {
  stop(): Promise<void>;
}

async function database(root: string): Promise<{ uri: string; engine: TwoInstances['engine']; parts: Stoppable[] }> {
  const scripts = (await import(pathToFileURL(join(root, 'scripts/postgresql.mjs')).href)) as {
    findPostgresqlBin(): string | null;
    startPostgresql(options: { log: (message: string) => void }): Promise<Stoppable & { url: string; dataDir: string }>;
  };
  if (!scripts.findPostgresqlBin()) {
    if (process.env.HITSCOPE_REQUIRE_POSTGRESQL === '1') throw new Error('HITSCOPE_REQUIRE_POSTGRESQL=1 and no PostgreSQL server here');
    const uri = new URL(browserServerDatabaseUri());
    uri.pathname = `/hitscope_browser_two_${randomBytes(3).toString('hex')}`;
    return { uri: uri.toString(), engine: 'sqlite', parts: [] };
  }
  const postgresql = await scripts.startPostgresql({ log: () => undefined });
  const launcher = (await import(pathToFileURL(join(root, 'dist/app/src/database/embedded-database.js')).href)) as {
    startEmbeddedDatabase(options: {
      dataDir: string;
      postgresqlUrl: string;
      log: (message: string) => void;
    }): Promise<Stoppable & { uri: string }>;
  };
  const ferretdb = await launcher.startEmbeddedDatabase({
    dataDir: postgresql.dataDir,
    postgresqlUrl: postgresql.url,
    log: () => undefined,
  });
  return { uri: `${ferretdb.uri}hitscope_two?maxPoolSize=10`, engine: 'postgresql', parts: [ferretdb, postgresql] };
}

export async function startTwoInstances(): Promise<TwoInstances> {
  const root = process.cwd();
  const { uri, engine, parts } = await database(root);
  const { startStripeMock } = (await import(pathToFileURL(join(root, 'scripts/stripe-mock.mjs')).href)) as {
    startStripeMock(log: (message: string) => void): Promise<Stoppable & { url: string }>;
  };
  const stripeMock = await startStripeMock(() => undefined);
  parts.push(stripeMock);
  const stripe = { mockUrl: stripeMock.url, webhookSecret: 'whsec_twoinstances12345678' };
  const ports = [await freePort(), await freePort()];
  const proxy = new RoundRobinProxy(ports);
  const origin = `http://127.0.0.1:${await proxy.start()}`;
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    MONGODB_URI: uri,
    // One secret for both, as behind any load balancer: a session or CSRF token of one is the other's.
    AUTH_SECRET: `two-instances-${randomBytes(16).toString('hex')}`,
    LOG_LEVEL: 'error',
    RATE_LIMIT_MULTIPLIER: '1000',
    ADMIN_EMAILS: TWO_INSTANCES_ADMIN.email,
    STRIPE_SECRET_KEY: 'sk_test_twoinstances123',
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.mockUrl,
  };
  const apps: ChildProcess[] = [];
  const stopApps = () =>
    Promise.all(
      apps.map(
        (app) =>
          new Promise<void>((resolve) => {
            if (app.exitCode !== null || app.signalCode !== null) return resolve();
            app.once('exit', () => resolve());
            app.kill('SIGTERM');
            setTimeout(() => app.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
  const stop = async () => {
    await stopApps();
    await proxy.stop();
    if (engine === 'sqlite') {
      const mongo = await MongoClient.connect(uri);
      await mongo
        .db()
        .dropDatabase()
        .catch(() => undefined);
      await mongo.close();
    }
    for (const part of parts) await part.stop();
  };
  try {
    for (const port of ports) {
      apps.push(
        spawn(process.execPath, [join(root, 'dist/app/src/main.js')], {
          cwd: root,
          env: { ...env, PORT: String(port) },
          stdio: ['ignore', 'inherit', 'inherit'],
        }),
      );
    }
    const deadline = Date.now() + 90_000;
    for (const port of ports) {
      for (;;) {
        if (apps.some((app) => app.exitCode !== null)) throw new Error('an instance exited during start-up');
        const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
          (response) => response.ok,
          () => false,
        );
        if (ready) break;
        if (Date.now() > deadline) throw new Error(`the instance on ${port} did not become ready`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, databaseUri: uri, engine, proxy, stripe, stop };
}
