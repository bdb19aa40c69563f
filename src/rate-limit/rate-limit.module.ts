import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitService } from './rate-limit.service.js';
import { RateLimitCounter, RateLimitCounterSchema } from './schemas/rate-limit-counter.schema.js';

@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: RateLimitCounter.name, schema: RateLimitCounterSchema }])],
  providers: [RateLimitService, RateLimitGuard],
  exports: [RateLimitService, RateLimitGuard],
})
export class RateLimitModule {}
