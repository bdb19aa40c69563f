import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A claim, by unique insert (no transaction needed): `_id` is `<licenceId>:<n>` for seat n (n < seats),
 * or `<licenceId>:deact:<yyyy-mm>:<k>` for the k-th deactivation of a month (the budget). Whoever
 * inserts the document holds the seat; releasing it deletes the document, only if still held by
 * the same activation (compare-and-delete).
 */
@Schema({ collection: 'licence_seats', versionKey: false })
export class LicenceSeat {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, index: true })
  licenceId!: string;

  /** The activation holding the seat (its `_id`); for a deactivation claim, the one deactivated. */
  @Prop({ type: String, required: true })
  activationId!: string;

  /** Random per claim, so a release never deletes a newer claim of the same seat by the same device. */
  @Prop({ type: String, required: true })
  claim!: string;

  @Prop({ type: String, required: true, enum: ['seat', 'deactivation'] })
  kind!: 'seat' | 'deactivation';

  @Prop({ type: Date, required: true })
  claimedAt!: Date;
}

export const LicenceSeatSchema = SchemaFactory.createForClass(LicenceSeat);
