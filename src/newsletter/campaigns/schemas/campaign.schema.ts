import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CAMPAIGN_STATES, type CampaignState } from '../../../../lib/api/newsletter-campaigns.js';

/**
 * A newsletter campaign. While it sends, its counters are kept here (safe `$inc`s over the app's
 * one database connection, each only after the delivery's own conditional update succeeded, and an
 * absolute recount when the queue empties), so the admin page never counts deliveries to load.
 */
@Schema({ collection: 'newsletter_campaigns', versionKey: false })
export class NewsletterCampaign {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  subject!: string;

  @Prop({ type: String, required: true })
  body!: string;

  @Prop({ type: String, required: true, enum: CAMPAIGN_STATES, index: true })
  state!: CampaignState;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;

  @Prop({ type: Date, default: null })
  startedAt!: Date | null;

  @Prop({ type: Date, default: null })
  finishedAt!: Date | null;

  /** Every confirmed subscriber at the time of "send" has a delivery document. */
  @Prop({ type: Boolean, default: false })
  snapshotComplete!: boolean;

  /** The last subscriber `_id` copied into deliveries: a snapshot cut short resumes after it. */
  @Prop({ type: String, default: null })
  snapshotCursor!: string | null;

  /** The snapshot's lease: one instance copies the list at a time; an expired lease is taken over. */
  @Prop({ type: Date, default: null })
  snapshotLeaseUntil!: Date | null;

  @Prop({ type: String, default: null })
  snapshotOwner!: string | null;

  /**
   * Slices of the snapshot recorded so far: slice `n` may be claimed once `n < slices`, so slices
   * written by a snapshot step that was cut short are adopted by the next step, never sent twice.
   */
  @Prop({ type: Number, default: 0 })
  slices!: number;

  @Prop({ type: Number, default: 0 })
  total!: number;

  @Prop({ type: Number, default: 0 })
  sent!: number;

  @Prop({ type: Number, default: 0 })
  failed!: number;

  @Prop({ type: Number, default: 0 })
  skipped!: number;

  /** Recipients waiting for a retry after a temporary failure. */
  @Prop({ type: Number, default: 0 })
  retrying!: number;

  /** Failed attempts since the last success; at the threshold the campaign pauses itself. */
  @Prop({ type: Number, default: 0 })
  consecutiveFailures!: number;

  @Prop({ type: String, default: null })
  pausedReason!: string | null;

  /** The `sent` count at a recent moment: the rate is measured from it (and it moves every few seconds). */
  @Prop({ type: Object, default: null })
  rateSample!: { at: Date; sent: number } | null;

  @Prop({ type: Number, default: null })
  ratePerSecond!: number | null;

  /** Unused since the requeue lock has its own document (requeue-lock.ts); kept in older documents. */
  @Prop({ type: Date, default: null })
  requeueUntil!: Date | null;

  /** Held back by an hour or day limit: sending goes on at this time (the ETA counts from it). */
  @Prop({ type: Date, default: null })
  waitingUntil!: Date | null;
}

export const NewsletterCampaignSchema = SchemaFactory.createForClass(NewsletterCampaign);
NewsletterCampaignSchema.index({ createdAt: -1 });
