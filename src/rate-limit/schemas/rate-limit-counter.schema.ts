import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One counted attempt. `key` is `<bucket>:<scope>:<subject>:<window index>`. Counting is an insert
 * (atomic on any backend) followed by a count of the window's documents, so the limit is exact even
 * for a burst of simultaneous requests — FerretDB 1.24 does not isolate concurrent `$inc`s on one
 * document, which let bursts slip past a single-counter design. Expired windows are swept (no TTL).
 */
@Schema({ collection: 'rate_limit_hits', versionKey: false })
export class RateLimitHit {
  @Prop({ type: String, required: true, index: true })
  key!: string;

  @Prop({ type: Date, required: true, index: true })
  expiresAt!: Date;
}

export const RateLimitHitSchema = SchemaFactory.createForClass(RateLimitHit);
