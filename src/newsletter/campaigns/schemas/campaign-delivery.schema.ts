import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One recipient of one campaign: `_id` is `<campaign>:<address>`, so copying the list twice (a
 * retried "send", a snapshot resumed after a crash) can only ever insert each recipient once.
 * A worker claims a batch by setting `sending` with a lease (`leaseUntil`, `leaseOwner`, `batch`);
 * a lease that expires (the worker died) makes the delivery claimable again.
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

  @Prop({ type: Number, default: 0 })
  attempts!: number;

  @Prop({ type: Date, required: true })
  nextAttemptAt!: Date;

  @Prop({ type: Date, default: null })
  leaseUntil!: Date | null;

  @Prop({ type: String, default: null })
  leaseOwner!: string | null;

  /** The claim that holds the lease: only its holder may settle the delivery. */
  @Prop({ type: String, default: null })
  batch!: string | null;

  @Prop({ type: String, default: null })
  lastError!: string | null;

  /** The SMTP reply code of the last failure, when the server gave one. */
  @Prop({ type: Number, default: null })
  lastCode!: number | null;

  @Prop({ type: Date, default: null })
  sentAt!: Date | null;
}

export const CampaignDeliverySchema = SchemaFactory.createForClass(CampaignDelivery);
CampaignDeliverySchema.index({ campaignId: 1, status: 1, nextAttemptAt: 1 });
CampaignDeliverySchema.index({ batch: 1 });
