import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { MrrContribution, MrrDay, Movements } from '../../../lib/mrr/mrr-rules.js';

/**
 * `mrr_snapshots`: one document per UTC day, `_id: "mrr:<yyyy-mm-dd>"`, inserted once and never
 * rewritten (P1/P5 of the research: the first complete computation of a day wins; a re-run for the
 * day meets the duplicate key and changes nothing).
 */
@Schema({ collection: 'mrr_snapshots', versionKey: false })
export class MrrSnapshot {
  @Prop({ type: String, required: true })
  _id!: string;

  /** yyyy-mm-dd (UTC). Ranges and "the newest" go by `_id`, which sorts the same. */
  @Prop({ type: String, required: true })
  day!: string;

  /** The instant the rules were evaluated at (cancel-at-period-end and coupon ends depend on it). */
  @Prop({ type: Date, required: true })
  asOf!: Date;

  /** The snapshot the movements are measured from (the newest earlier one), or null for the first. */
  @Prop({ type: String, default: null })
  previousDay!: string | null;

  @Prop({ type: [MongooseSchema.Types.Mixed], required: true })
  totals!: MrrDay['totals'];

  /** Per currency, from `previousDay`; null for the first snapshot (nothing to compare with). */
  @Prop({ type: [MongooseSchema.Types.Mixed], default: null })
  movements!: ({ currency: string } & Movements)[] | null;

  @Prop({ type: MongooseSchema.Types.Mixed, required: true })
  counts!: MrrDay['counts'];

  /** Every subscription with MRR > 0, sorted by id. */
  @Prop({ type: [MongooseSchema.Types.Mixed], required: true })
  subscriptions!: MrrContribution[];
}
export const MrrSnapshotSchema = SchemaFactory.createForClass(MrrSnapshot);

/**
 * `mrr_customers`: `_id` = Stripe customer id → the first day a snapshot gave them MRR. It is how
 * "had MRR before" (reactivation, not new) is answered without reading every old snapshot. Written
 * with `$setOnInsert` by the run whose snapshot insert won, and made good by the next day's run if
 * that one stopped in between.
 */
@Schema({ collection: 'mrr_customers', versionKey: false })
export class MrrCustomer {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  firstDay!: string;
}
export const MrrCustomerSchema = SchemaFactory.createForClass(MrrCustomer);
