import { Logger } from '@nestjs/common';
import type { TopologyDescriptionChangedEvent } from 'mongodb';
import mongoose, { type Connection, type MongooseQueryMiddleware, type Schema } from 'mongoose';

/**
 * Thrown instead of running a query while the driver knows the database is unreachable. Its name is
 * one of those the exception filter answers with 503 (common/error-response.ts).
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';

  constructor() {
    super('The database is unreachable');
  }
}

/** Pause between two recovery probes while the database is down. */
const PROBE_PAUSE_MS = 250;

/**
 * A circuit breaker on the connection, fed by the driver's own monitoring. Once the driver's monitor
 * has found every server of the deployment unreachable, each query would otherwise wait
 * `serverSelectionTimeoutMS` (2.5 s) for a server before failing, and so would every request: while
 * the database is known to be down, queries fail at once instead (503 with Retry-After, as before,
 * only without the wait). Until the monitor notices (its next heartbeat, up to 10 s), queries fail
 * fast on their own: the refused connection is their error.
 *
 * Nothing would ask the driver to look again soon once queries stop reaching it (its monitor checks
 * every 10 s when idle), so while down this probes with a ping, one at a time: a waiting server
 * selection makes the monitor check every 500 ms, and the first answer ends the outage. Readiness
 * (`/health/ready`) pings for itself and is not affected.
 */
export class DatabaseAvailability {
  private static readonly watched = new WeakMap<Connection, DatabaseAvailability>();
  private readonly logger = new Logger('Database');
  private downSince: number | null = null;
  private closed = false;
  private probing = false;
  private readonly downListeners = new Set<() => void>();

  private constructor(private readonly connection: Connection) {
    const client = connection.getClient();
    client.on('topologyDescriptionChanged', (event: TopologyDescriptionChangedEvent) => this.observe(event));
    client.on('topologyClosed', () => {
      this.closed = true;
    });
  }

  /** Starts watching a connected connection (idempotent). */
  static watch(connection: Connection): DatabaseAvailability {
    let availability = DatabaseAvailability.watched.get(connection);
    if (!availability) {
      availability = new DatabaseAvailability(connection);
      DatabaseAvailability.watched.set(connection, availability);
    }
    return availability;
  }

  /** Throws DatabaseUnavailableError when `connection` is watched and known to be down. */
  static assertReachable(connection: Connection | undefined): void {
    if (connection && DatabaseAvailability.watched.get(connection)?.down) throw new DatabaseUnavailableError();
  }

  get down(): boolean {
    return this.downSince !== null;
  }

  /**
   * Calls `listener` when the database goes down (not if it already is); answers the unsubscribe.
   * A request in flight at that moment may be inside the driver, retrying a read after waiting up
   * to 2.5 s for a server: the request deadline uses this to answer it at once instead.
   */
  onDown(listener: () => void): () => void {
    this.downListeners.add(listener);
    return () => this.downListeners.delete(listener);
  }

  private observe(event: TopologyDescriptionChangedEvent): void {
    const servers = [...event.newDescription.servers.values()];
    // Down: no server the driver can use, and it has tried (an error), not merely not looked yet.
    const unreachable =
      servers.length > 0 && servers.every((server) => server.type === 'Unknown') && servers.some((server) => server.error);
    if (unreachable && this.downSince === null) {
      this.downSince = Date.now();
      this.logger.warn('The database is unreachable: requests that need it answer 503 at once until it answers again');
      for (const listener of [...this.downListeners]) listener();
      void this.probeUntilBack();
    } else if (!unreachable && this.downSince !== null && servers.some((server) => server.type !== 'Unknown')) {
      this.logger.log(`The database answers again, after ${((Date.now() - this.downSince) / 1000).toFixed(1)} s`);
      this.downSince = null;
    }
  }

  private async probeUntilBack(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      while (this.down && !this.closed) {
        await this.connection
          .getClient()
          .db('admin')
          .command({ ping: 1 })
          .catch(() => undefined);
        if (this.down && !this.closed) await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS).unref());
      }
    } finally {
      this.probing = false;
    }
  }
}

/** What each kind of middleware has as `this`: a query, an aggregate, a document or a model. */
type WithConnection = { model?: { db?: Connection } | (() => { db?: Connection }); db?: Connection };

function connectionOf(self: WithConnection): Connection | undefined {
  if (self.db) return self.db; // a document or a model
  const model = typeof self.model === 'function' ? self.model() : self.model; // an aggregate, a query
  return model?.db;
}

function failFast(this: WithConnection): void {
  DatabaseAvailability.assertReachable(connectionOf(this));
}

const QUERY_OPERATIONS: MongooseQueryMiddleware[] = [
  'countDocuments',
  'distinct',
  'estimatedDocumentCount',
  'find',
  'findOne',
  'findOneAndReplace',
  'findOneAndUpdate',
  'replaceOne',
  'updateMany',
  'updateOne',
  'deleteMany',
  'deleteOne',
  'findOneAndDelete',
];

/** The plugin: every query, aggregation, save and bulk write checks the breaker before it runs. */
function failFastPlugin(schema: Schema): void {
  schema.pre(QUERY_OPERATIONS, { document: false, query: true }, failFast);
  schema.pre('aggregate', failFast);
  schema.pre(['save', 'updateOne', 'deleteOne'], { document: true, query: false }, failFast);
  schema.pre('insertMany', failFast);
  schema.pre('bulkWrite', failFast);
}

let installed = false;

/**
 * Registers the breaker's plugin on every schema compiled from now on (once per process; each
 * query looks up its own connection's breaker, so several apps in one process stay apart).
 */
export function installFailFast(): void {
  if (installed) return;
  installed = true;
  mongoose.plugin(failFastPlugin);
}
