import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const SLICE_STATES = ['queued', 'sending'] as const;
export type SliceState = (typeof SLICE_STATES)[number];

/**
 * A run of up to `batchSize` recipients of one campaign that still has something to send: the unit
 * a worker claims. `_id` is `<campaign>:<n>` (`n` counts the snapshot's slices) or
 * `<campaign>:r<id>:<k>` for a retry of failed recipients (`n: -1`). The document is deliberately
 * tiny, and deleted once every recipient in it is settled, so the collection holds only the work
 * still open: on FerretDB a claim (`findOneAndUpdate` on `{campaignId, state, nextAttemptAt}`)
 * reads the whole collection, and a few hundred small documents read in milliseconds.
 *
 * A claim sets `sending` with a lease (`leaseUntil`, `leaseOwner`) and its own `claim` id; only the
 * holder of `claim` may write the slice back (requeue it or delete it). A lease that runs out (the
 * worker died) makes the slice claimable again; the next claimer first checks which recipients
 * were already settled.
 */
@Schema({ collection: 'newsletter_campaign_slices', versionKey: false })
export class CampaignSlice {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  campaignId!: string;

  /** The snapshot's slice number: claimable only once the campaign has recorded it (`n < slices`). -1: a retry slice. */
  @Prop({ type: Number, required: true })
  n!: number;

  @Prop({ type: String, required: true, enum: SLICE_STATES })
  state!: SliceState;

  /** The earliest moment one of its recipients is due (now for a new slice, later when all wait for a retry). */
  @Prop({ type: Date, required: true })
  nextAttemptAt!: Date;

  @Prop({ type: Date, default: null })
  leaseUntil!: Date | null;

  @Prop({ type: String, default: null })
  leaseOwner!: string | null;

  /** The claim that holds the lease: only its holder may write the slice back. */
  @Prop({ type: String, default: null })
  claim!: string | null;

  /**
   * Bumped by every claim and every requeue: a claim is first a unique insert of
   * `<slice id>@<version>` into `newsletter_slice_claims` (SliceClaim), so of the workers that saw
   * the slice claimable at one version exactly one takes it, on any database and any number of
   * connections (a conditional `findOneAndUpdate` is exact only where updates are atomic).
   */
  @Prop({ type: Number, default: 0 })
  version!: number;
}

export const CampaignSliceSchema = SchemaFactory.createForClass(CampaignSlice);
CampaignSliceSchema.index({ campaignId: 1, state: 1, nextAttemptAt: 1 });

/** The ticket of one claim of one slice at one version (see CampaignSlice#version); deleted with the campaign's slices. */
@Schema({ collection: 'newsletter_slice_claims', versionKey: false })
export class SliceClaim {
  /** `<slice id>@<version>`. */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  campaignId!: string;

  @Prop({ type: Date, required: true })
  claimedAt!: Date;
}

export const SliceClaimSchema = SchemaFactory.createForClass(SliceClaim);

/** One recipient of a slice that is not settled yet, with its retry state. */
export interface SliceRecipient {
  email: string;
  /** Attempts made so far (0: never tried). */
  attempts: number;
  /** Not before this time (after a temporary failure); null: due now. */
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastCode: number | null;
}

/**
 * The recipients of one slice still to settle, in address order: `_id` is the slice's. Kept apart
 * from the slice so that the claim's search reads only tiny documents; read and written by `_id`
 * alone, and written only by the holder of the slice's claim. Deleted all at once (`deleteMany` by
 * campaign) when the campaign ends or is cancelled, not one by one (a delete reads the collection).
 */
@Schema({ collection: 'newsletter_slice_recipients', versionKey: false })
export class SliceRecipients {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  campaignId!: string;

  @Prop({ type: [Object], required: true })
  recipients!: SliceRecipient[];
}

export const SliceRecipientsSchema = SchemaFactory.createForClass(SliceRecipients);
