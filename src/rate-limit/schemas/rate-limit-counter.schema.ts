import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Requests counted in one window for one subject, under `<bucket>:<scope>:<subject hash>:<window
 * index>`, so the next window starts afresh. Two forms: a hit claimed by a unique insert is
 * `<that>#<k>` with `count: 1` (RateLimitService#take, exact on any database), and the buffered
 * limits' shared total is `<that>` with the count of every instance (RateLimitService#hitBuffered).
 * Past windows are deleted by a periodic sweep on `expiresAt` (FerretDB has no TTL indexes).
 */
@Schema({ collection: 'rate_limit_counters', versionKey: false })
export class RateLimitCounter {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Number, required: true })
  count!: number;

  /** The end of the window. */
  @Prop({ type: Date, required: true, index: true })
  expiresAt!: Date;
}

export const RateLimitCounterSchema = SchemaFactory.createForClass(RateLimitCounter);
