import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const DELIVERY_STATUSES = ['sent', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The outcome of one recipient of one campaign, written once it is final (sent, failed for good,
 * or skipped): `_id` is `<campaign>:<address>`, so a second settle of the same recipient (a worker
 * whose lease ran out while another took its slice over) cannot insert it twice, and counting what
 * was inserted counts every recipient once. Recipients still to send (and their retries) live in
 * the campaign's slices: this collection, which grows with every campaign, is only ever inserted
 * into while sending (FerretDB answers an insert in a millisecond whatever the collection's size,
 * but even an update by `_id` reads it).
 */
@Schema({ collection: 'newsletter_deliveries', versionKey: false })
export class CampaignDelivery {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  campaignId!: string;

  @Prop({ type: String, required: true })
  email!: string;

  @Prop({ type: String, required: true, enum: DELIVERY_STATUSES })
  status!: DeliveryStatus;

  /** Attempts made, the successful one included (0 for a skipped recipient never tried). */
  @Prop({ type: Number, default: 0 })
  attempts!: number;

  @Prop({ type: String, default: null })
  lastError!: string | null;

  /** The SMTP reply code of the last failure, when the server gave one. */
  @Prop({ type: Number, default: null })
  lastCode!: number | null;

  @Prop({ type: Date, default: null })
  sentAt!: Date | null;
}

export const CampaignDeliverySchema = SchemaFactory.createForClass(CampaignDelivery);
CampaignDeliverySchema.index({ campaignId: 1, status: 1 });
