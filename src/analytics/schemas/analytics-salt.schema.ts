import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * The visitor-hash key of one UTC day: 16 random bytes, `_id` the day. Created by a unique insert,
 * so every instance ends up with the same salt (the loser of the race reads the winner's). Today's
 * and yesterday's are kept (a visit crossing midnight continues); older ones are deleted, after
 * which no stored hash can be linked to an IP address and user agent again.
 */
@Schema({ collection: 'analytics_salts', versionKey: false })
export class AnalyticsSalt {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Buffer, required: true })
  salt!: Buffer;

  @Prop({ type: Date, required: true })
  createdAt!: Date;
}

export const AnalyticsSaltSchema = SchemaFactory.createForClass(AnalyticsSalt);
