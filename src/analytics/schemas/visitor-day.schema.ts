import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One visitor on one UTC day: `_id` is `<day>:<hash>` (the hash of the day's salt, never an IP or a
 * user agent). Inserted once (the only write made while a page view is collected), then updated by
 * the periodic flush. Counted at day close into the day's unique visitors and deleted 48 h after.
 */
@Schema({ collection: 'analytics_visitor_days', versionKey: false })
export class VisitorDay {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  day!: string;

  /** The first page of the day. */
  @Prop({ type: String, required: true })
  entry!: string;

  @Prop({ type: Date, required: true })
  firstAt!: Date;

  @Prop({ type: Date, required: true })
  lastAt!: Date;

  @Prop({ type: Number, required: true })
  pages!: number;

  /** Visits of the day (a new one after 30 minutes without a page view). */
  @Prop({ type: Number, required: true })
  visits!: number;

  /** Page views in the current visit: 1 means it is (so far) a bounce. */
  @Prop({ type: Number, required: true })
  visitPages!: number;
}

export const VisitorDaySchema = SchemaFactory.createForClass(VisitorDay);
VisitorDaySchema.index({ day: 1, lastAt: 1 });
