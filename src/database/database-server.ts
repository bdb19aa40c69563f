import { MongoClient, MongoServerError } from 'mongodb';

/** What answers at the database URI, as far as the way we connect to it is concerned. */
export type DatabaseServer = 'mongodb' | 'ferretdb';

/**
 * Documents per batch of a long read done in the background (the admin overview's MRR and sign-up
 * figures). On the embedded database's one connection each command of a person's request waits for
 * the batch under way: at 100 000 users a batch of 100 subscriptions took 6.8 ms, and a sign-in
 * took 84–98 ms instead of 20–37 while the overview was computed; 25 take about 2 ms.
 */
export const BACKGROUND_READ_BATCH = 25;

/** How long start-up waits for the database to answer (a database container may still be starting). */
export const IDENTIFY_TIMEOUT_MS = 30_000;

/**
 * FerretDB says who it is in `buildInfo`: 1.x adds `ferretdbVersion` and `ferretdbFeatures` beside
 * the MongoDB version it imitates (`hello` carries nothing of the sort); 2.x reports a `ferretdb` section.
 */
export function isFerretDbBuildInfo(buildInfo: Record<string, unknown>): boolean {
  return Object.keys(buildInfo).some((key) => key.toLowerCase().startsWith('ferretdb'));
}

/**
 * Asks the server at `uri` what it is, before the application's connection is configured. The
 * server itself is asked, rather than inferring FerretDB from "MONGODB_URI is unset": the test
 * suites and the browser server hand the embedded FerretDB to the app through MONGODB_URI, and an
 * operator may run FerretDB on their own; both need the single connection too.
 *
 * A server that refuses `buildInfo` is treated as FerretDB: one connection is correct on every
 * server, only slower; a pool of several is correct only where updates are atomic.
 */
export async function identifyDatabaseServer(uri: string, timeoutMs = IDENTIFY_TIMEOUT_MS): Promise<DatabaseServer> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, maxPoolSize: 1 });
  try {
    const buildInfo = await client.db('admin').command({ buildInfo: 1 });
    return isFerretDbBuildInfo(buildInfo) ? 'ferretdb' : 'mongodb';
  } catch (error) {
    if (error instanceof MongoServerError) return 'ferretdb';
    throw new Error(`The database did not answer within ${Math.round(timeoutMs / 1000)} s: ${(error as Error).message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** `maxPoolSize` as written in the URI's options (case-insensitive, as the driver reads it), or null. */
export function uriMaxPoolSize(uri: string): number | null {
  const query = uri.split('?')[1];
  if (!query) return null;
  for (const [name, value] of new URLSearchParams(query)) {
    if (name.toLowerCase() === 'maxpoolsize') return Number(value);
  }
  return null;
}

export interface PoolChoice {
  /** Set for FerretDB: the connection options win over the URI's own. */
  maxPoolSize?: number;
  /** Something the operator should hear about at start-up. */
  warning?: string;
}

/**
 * FerretDB 1.x runs an update as a read followed by a separate write, without isolating the two
 * from other connections: 200 concurrent `$inc`s on one document through a 50-connection pool left
 * 5. Over one connection the driver sends one command at a time and FerretDB finishes it before
 * reading the next, so every update sees the previous one (200 out of 200, and faster, since the
 * lost attempts no longer contend). MongoDB applies each update atomically and keeps the driver's
 * normal pool.
 *
 * An explicit `maxPoolSize` in the URI is the operator's word and is kept, with a warning on
 * FerretDB (the benchmark uses it to compare the two).
 */
export function choosePool(server: DatabaseServer, uri: string): PoolChoice {
  if (server === 'mongodb') return {};
  const explicit = uriMaxPoolSize(uri);
  if (explicit === null || explicit === 1) return { maxPoolSize: 1 };
  return {
    warning:
      `MONGODB_URI sets maxPoolSize=${explicit} on FerretDB: concurrent updates of one document can be lost there ` +
      '(it runs an update as a read and a separate write). Remove it to use the single connection Hitscope chooses for FerretDB.',
  };
}
