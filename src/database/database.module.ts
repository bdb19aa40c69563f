import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import mongoose from 'mongoose';
import { choosePool, identifyDatabaseServer } from './database-server.js';

/**
 * Mongoose defaults would hold a request for 10-30 s while the database is unreachable. These
 * bounds make every query fail within a few seconds instead, which the exception filter turns into
 * a 503 with Retry-After.
 */
export const DATABASE_TIMEOUTS = {
  serverSelectionTimeoutMS: 2500,
  bufferTimeoutMS: 2500,
  socketTimeoutMS: 10_000,
  connectTimeoutMS: 5000,
} as const;

@Module({})
export class DatabaseModule {
  static forRoot(uri: string): DynamicModule {
    mongoose.set('bufferTimeoutMS', DATABASE_TIMEOUTS.bufferTimeoutMS);
    mongoose.set('strictQuery', true);
    // No global sanitizeFilter: it also rewrites the service's own `$lt`/`$or` filters. Operator
    // injection is stopped at the edge instead: `$`-keys are refused (reject-operator-keys
    // middleware) and DTOs admit only scalar types where a filter value comes from a request.
    return {
      module: DatabaseModule,
      imports: [
        MongooseModule.forRootAsync({
          // The pool depends on the server (one connection on FerretDB, see choosePool), so the
          // server is asked what it is before the connection is configured.
          useFactory: async () => {
            const server = await identifyDatabaseServer(uri);
            const pool = choosePool(server, uri);
            const logger = new Logger('Database');
            if (pool.warning) logger.warn(pool.warning);
            // Debug: a production start prints only the database, warnings and the address.
            logger.debug(
              server === 'ferretdb'
                ? `FerretDB: ${pool.maxPoolSize === 1 ? 'one connection' : 'the pool MONGODB_URI asks for'}`
                : 'MongoDB: connection pool',
            );
            return {
              uri,
              serverSelectionTimeoutMS: DATABASE_TIMEOUTS.serverSelectionTimeoutMS,
              socketTimeoutMS: DATABASE_TIMEOUTS.socketTimeoutMS,
              connectTimeoutMS: DATABASE_TIMEOUTS.connectTimeoutMS,
              autoIndex: true,
              ...(pool.maxPoolSize ? { maxPoolSize: pool.maxPoolSize } : {}),
            };
          },
        }),
      ],
      exports: [MongooseModule],
    };
  }
}
