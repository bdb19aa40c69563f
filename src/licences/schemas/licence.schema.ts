import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

@Schema({ _id: false, versionKey: false })
export class LicenceSource {
  @Prop({ type: String, required: true, enum: ['subscription', 'order', 'grant'] })
  kind!: 'subscription' | 'order' | 'grant';

  @Prop({ type: String, required: true })
  id!: string;
}

/**
 * One licence for one product, made from one entitlement source (a subscription, an order, an
 * administrator's grant). `_id` is `lic_` + a hash of the source and the product, so applying the
 * same entitlement twice finds the same document. The key is never stored in the clear: AES-256-GCM
 * ciphertext for its owner's dashboard, and an HMAC-SHA256 of the normalised key to find it.
 */
@Schema({ collection: 'licences', versionKey: false })
export class Licence {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, index: true })
  userId!: string;

  @Prop({ type: String, required: true })
  product!: string;

  @Prop({ type: String, required: true })
  planId!: string;

  @Prop({ type: SchemaFactory.createForClass(LicenceSource), required: true })
  source!: LicenceSource;

  @Prop({ type: Number, required: true })
  seats!: number;

  @Prop({ type: String, required: true })
  state!: 'active' | 'past_due' | 'suspended' | 'revoked' | 'expired';

  @Prop({ type: Date, default: null })
  expiresAt!: Date | null;

  @Prop({ type: Date, default: null })
  graceUntil!: Date | null;

  /** Set by an administrator's revocation; wins over whatever billing applies later. */
  @Prop({ type: Date, default: null })
  revokedAt!: Date | null;

  @Prop({ type: String, required: true })
  keyCiphertext!: string;

  @Prop({ type: String, required: true, unique: true })
  keyLookup!: string;

  @Prop({ type: String, required: true })
  keyHint!: string;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const LicenceSchema = SchemaFactory.createForClass(Licence);
LicenceSchema.index({ 'source.kind': 1, 'source.id': 1 });
