import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Requests counted in one window for one subject. `_id` is `<bucket>:<scope>:<subject hash>:<window
 * index>`, so a window's counter is found by its id and the next window starts a new document.
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
