import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A device using a licence: `_id` is `<licenceId>:<fingerprint>`, so a device re-activating finds its
 * own activation (and seat) instead of taking another. `released`: unseen for 30 days, its seat was
 * given back; it stays listed (the dashboard says why) until the device activates again.
 */
@Schema({ collection: 'licence_activations', versionKey: false })
export class LicenceActivation {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, index: true })
  licenceId!: string;

  @Prop({ type: String, required: true })
  fingerprint!: string;

  @Prop({ type: String, required: true, enum: ['active', 'released'] })
  status!: 'active' | 'released';

  @Prop({ type: Number, required: true })
  seat!: number;

  /** The random token of the seat claim: releases delete the seat only while it holds this claim. */
  @Prop({ type: String, required: true })
  claim!: string;

  @Prop({ type: String, default: '' })
  name!: string;

  @Prop({ type: String, default: '' })
  platform!: string;

  @Prop({ type: String, default: '' })
  appVersion!: string;

  @Prop({ type: Date, required: true })
  activatedAt!: Date;

  /** Updated at most once an hour per device (validation is read-mostly). */
  @Prop({ type: Date, required: true })
  lastSeenAt!: Date;

  @Prop({ type: Date, default: null })
  releasedAt!: Date | null;
}

export const LicenceActivationSchema = SchemaFactory.createForClass(LicenceActivation);
