import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One fixed-window counter: `_id` is `<bucket>:<scope>:<subject>:<window index>`, so counting is a
 * single atomic `$inc` upsert that every instance shares. Expired windows are swept (no TTL index
 * on FerretDB).
 */
@Schema({ collection: 'rate_limit_counters', versionKey: false })
export class RateLimitCounter {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Number, required: true, default: 0 })
  count!: number;

  @Prop({ type: Date, required: true, index: true })
  expiresAt!: Date;
}

export const RateLimitCounterSchema = SchemaFactory.createForClass(RateLimitCounter);
