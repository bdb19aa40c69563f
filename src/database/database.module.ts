import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import mongoose from 'mongoose';

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
        MongooseModule.forRoot(uri, {
          serverSelectionTimeoutMS: DATABASE_TIMEOUTS.serverSelectionTimeoutMS,
          socketTimeoutMS: DATABASE_TIMEOUTS.socketTimeoutMS,
          connectTimeoutMS: DATABASE_TIMEOUTS.connectTimeoutMS,
          autoIndex: true,
        }),
      ],
      exports: [MongooseModule],
    };
  }
}
