import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A daily counter: `_id` is `<day>|<dimension>|<value>`, incremented by the flush of each instance
 * with one bulk write of `$inc` upserts (exact over the one connection to FerretDB, atomic on
 * MongoDB). Dimensions: the breakdowns of lib/api/analytics.ts, `total` (pageviews, visits,
 * bounces, visitors) and `drop` (reasons). A closed day's counters are folded into one
 * {@link AnalyticsDaySummary}.
 */
@Schema({ collection: 'analytics_counters', versionKey: false })
export class AnalyticsCounter {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  day!: string;

  @Prop({ type: String, required: true })
  dim!: string;

  @Prop({ type: String, required: true })
  value!: string;

  @Prop({ type: Number, required: true })
  n!: number;
}

export const AnalyticsCounterSchema = SchemaFactory.createForClass(AnalyticsCounter);
AnalyticsCounterSchema.index({ day: 1 });

/**
 * A closed day in one document (`_id` the day): every counter of the day, so a 90-day dashboard
 * reads 90 documents. Inserted once (unique `_id`) by whichever instance closes the day first.
 */
@Schema({ collection: 'analytics_days', versionKey: false })
export class AnalyticsDaySummary {
  @Prop({ type: String, required: true })
  _id!: string;

  /**
   * `[dimension, value, count]` triples as one JSON string: FerretDB stores no nested arrays, and
   * one string is far cheaper for it to read than hundreds of sub-documents (a 90-day dashboard
   * reads 180 of these; measured in `npm run bench`).
   */
  @Prop({ type: String, required: true })
  counts!: string;

  @Prop({ type: Date, required: true })
  closedAt!: Date;
}

export const AnalyticsDaySummarySchema = SchemaFactory.createForClass(AnalyticsDaySummary);
