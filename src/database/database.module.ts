import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { DatabaseAvailability, installFailFast } from './database-availability.js';
import { choosePool, type DatabaseServer, identifyDatabaseServer } from './database-server.js';

/**
 * Bounds on every wait the driver can be in, so that a database that refuses, stalls or crawls
 * makes queries fail within a few seconds (the exception filter answers 503 with Retry-After)
 * instead of holding requests and piling work up behind them:
 * - `serverSelectionTimeoutMS`: no server known to be up (refused connections, a restart);
 * - `waitQueueTimeoutMS`: waiting for a connection of the pool. With FerretDB's single
 *   connection every query queues behind the one in flight; when that one is stalled, the queue
 *   fails after this instead of growing for as long as the stall lasts and then replaying minutes
 *   of work that nobody is waiting for any more;
 * - `socketTimeoutMS`: a query in flight with no byte back (a network partition). The connection
 *   is then closed and a fresh one opened for the next query. Kept under the request deadline;
 *   no query of this app legitimately goes this long without an answer;
 * - `connectTimeoutMS`: the TCP and handshake part of opening a connection;
 * - `bufferTimeoutMS`: mongoose's own queue while it has no connection at all.
 * The request deadline (REQUEST_TIMEOUT_MS, common/request-deadline.middleware.ts) is the hard
 * bound on the answer; these make the work behind it stop too.
 */
export const DATABASE_TIMEOUTS = {
  serverSelectionTimeoutMS: 2500,
  waitQueueTimeoutMS: 2500,
  socketTimeoutMS: 4000,
  connectTimeoutMS: 3000,
  bufferTimeoutMS: 2500,
} as const;

/**
 * The second connection (`@InjectModel(Name, SIDE_CONNECTION)`, after `MongooseModule.forFeature([...],
 * SIDE_CONNECTION)`), for commands that need not take turns with updates: grouped reads (ReadBatcher;
 * the webhook inbox's inserts have a connection of their own, INBOX_CONNECTION). FerretDB runs an
 * update as a read and a separate write, so updates stay on the one connection (choosePool); a read
 * or an insert on another connection loses nothing, and a read sent after a write was answered sees
 * it. On the embedded database this lets the database work on a read while the app still handles
 * the answer of an update, instead of every command waiting for the one before (webhooks: 118–124
 * events/s against 101–110 with one connection, paired runs of `npm run bench`). On MongoDB it is a
 * second pool like the first.
 */
export const SIDE_CONNECTION = 'side';

/**
 * The third connection: the webhook inbox's inserts alone (`@InjectModel(Name, INBOX_CONNECTION)`).
 * A delivery is answered once its two inserts are done; on the side connection they waited behind
 * the processing's grouped reads (a burst of 300 events, each delivered twice: every POST answered
 * in 1.18–1.46 s against 1.59–2.14 s, deliveries accepted at 412–509 against 281–376 per second,
 * three paired runs of `npm run bench`). Inserts lose nothing over another connection.
 */
export const INBOX_CONNECTION = 'inbox';

export interface DatabaseOptions {
  /** Log every database command that takes longer than this (ms), with its shape; 0: none. */
  slowCommandMs?: number;
}

/** Keys of a filter or sort, operators opened up, values left out: `{userId, $or: {name, email}}`. */
function keysOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(keysOf).join(', ');
  // The driver sends a sort as a Map.
  if (value instanceof Map) return `{${[...(value as Map<string, unknown>).keys()].join(', ')}}`;
  if (!value || typeof value !== 'object') return '';
  const keys = Object.entries(value as Record<string, unknown>).map(([key, inner]) =>
    key.startsWith('$') && inner && typeof inner === 'object' ? `${key}: ${keysOf(inner)}` : key,
  );
  return `{${keys.join(', ')}}`;
}

/**
 * A command's shape for the slow-command log: its name, its collection and the keys it filters and
 * sorts on, never a value (they may be e-mail addresses).
 */
export function commandShape(command: Record<string, unknown>): string {
  const [name] = Object.keys(command);
  const first = (list: unknown) => (Array.isArray(list) ? (list[0] as { q?: unknown } | undefined)?.q : undefined);
  const filter = command.filter ?? command.query ?? first(command.updates) ?? first(command.deletes);
  const parts = [`${name} ${name === 'getMore' ? String(command.collection) : String(command[name])}`];
  if (filter !== undefined) parts.push(keysOf(filter));
  if (command.sort) parts.push(`sort ${keysOf(command.sort)}`);
  if (Array.isArray(command.pipeline)) parts.push(`[${(command.pipeline as object[]).map((stage) => Object.keys(stage)[0]).join(', ')}]`);
  return parts.join(' ');
}

@Module({})
export class DatabaseModule {
  static forRoot(uri: string, options: DatabaseOptions = {}): DynamicModule {
    mongoose.set('bufferTimeoutMS', DATABASE_TIMEOUTS.bufferTimeoutMS);
    mongoose.set('strictQuery', true);
    // Queries fail at once while the driver knows the database is down (database-availability.ts).
    installFailFast();
    // No global sanitizeFilter: it also rewrites the service's own `$lt`/`$or` filters. Operator
    // injection is stopped at the edge instead: `$`-keys are refused (reject-operator-keys
    // middleware) and DTOs admit only scalar types where a filter value comes from a request.
    // The pool depends on the server (one connection on FerretDB, see choosePool), so the server is
    // asked what it is before the connections are configured (once for both).
    let identified: Promise<DatabaseServer> | null = null;
    const identify = () => (identified ??= identifyDatabaseServer(uri));
    const connection = (name?: string) =>
      MongooseModule.forRootAsync({
        ...(name ? { connectionName: name } : {}),
        useFactory: async () => {
          const server = await identify();
          const pool = choosePool(server, uri);
          const logger = new Logger('Database');
          if (!name) {
            if (pool.warning) logger.warn(pool.warning);
            // Debug: a production start prints only the database, warnings and the address.
            logger.debug(
              server === 'ferretdb'
                ? `FerretDB: ${pool.maxPoolSize === 1 ? 'one connection for updates, one beside it for grouped reads, one for the webhook inbox' : 'the pool MONGODB_URI asks for'}`
                : 'MongoDB: connection pool',
            );
          }
          return {
            uri,
            ...(options.slowCommandMs ? { monitorCommands: true } : {}),
            connectionFactory: (connection: Connection) => {
              DatabaseAvailability.watch(connection);
              return options.slowCommandMs ? logSlowCommands(options.slowCommandMs)(connection) : connection;
            },
            serverSelectionTimeoutMS: DATABASE_TIMEOUTS.serverSelectionTimeoutMS,
            waitQueueTimeoutMS: DATABASE_TIMEOUTS.waitQueueTimeoutMS,
            socketTimeoutMS: DATABASE_TIMEOUTS.socketTimeoutMS,
            connectTimeoutMS: DATABASE_TIMEOUTS.connectTimeoutMS,
            // Collections and indexes are the main connection's to make; the side one only uses them.
            autoIndex: !name,
            autoCreate: !name,
            ...(pool.maxPoolSize ? { maxPoolSize: pool.maxPoolSize } : {}),
          };
        },
      });
    return {
      module: DatabaseModule,
      imports: [connection(), connection(SIDE_CONNECTION), connection(INBOX_CONNECTION)],
      exports: [MongooseModule],
    };
  }
}

/**
 * DATABASE_SLOW_MS: logs each command slower than `thresholdMs` with its shape (which collection,
 * which keys it filters and sorts on), so an operator can see which query reads a whole collection
 * on their database. The driver times each command from sending it to its answer, queueing for the
 * connection excluded.
 */
function logSlowCommands(thresholdMs: number) {
  const logger = new Logger('DatabaseSlow');
  return (connection: Connection) => {
    const started = new Map<number, Record<string, unknown>>();
    const client = connection.getClient();
    client.on('commandStarted', (event: CommandStartedEvent) => {
      started.set(event.requestId, event.command as Record<string, unknown>);
    });
    client.on('commandSucceeded', (event: CommandSucceededEvent) => {
      const command = started.get(event.requestId);
      started.delete(event.requestId);
      if (command && event.duration >= thresholdMs) logger.warn(`${event.duration.toFixed(0)} ms: ${commandShape(command)}`);
    });
    client.on('commandFailed', (event: CommandFailedEvent) => started.delete(event.requestId));
    return connection;
  };
}
