import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SUBSCRIBER_STATES, type SubscriberState, type SubscriptionSource } from '../../../lib/api/newsletter.js';

export const SUPPRESSION_REASONS = ['unsubscribed', 'complained', 'bounced'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** What a person agreed to, where and when: the proof of consent (GDPR art. 7(1)). No raw IP is kept. */
export interface ConsentProof {
  source: SubscriptionSource;
  at: Date;
  /** A keyed hash of the client address (newsletter-token.ts#hashIp), or null when unknown. */
  ipHash: string | null;
  textVersion: string;
}

/**
 * One document per address: `_id` is the normalised e-mail address (lib/accounts/email-address.ts),
 * so a second sign-up of the same address can only ever update this document, never create a twin,
 * and every lookup is a fast `_id` equality on FerretDB.
 */
@Schema({ collection: 'newsletter_subscribers', versionKey: false })
export class NewsletterSubscriber {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, enum: SUBSCRIBER_STATES })
  state!: SubscriberState;

  /** The latest sign-up request (the one a confirmation answers). */
  @Prop({ type: Object, required: true })
  consent!: ConsentProof;

  /** The click on "Confirm subscription" (or the signed-in profile opt-in): when, and from where. */
  @Prop({ type: Object, default: null })
  confirmation!: { at: Date; ipHash: string | null; via: 'link' | 'profile' } | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, default: null })
  confirmedAt!: Date | null;

  @Prop({ type: Date, default: null })
  unsubscribedAt!: Date | null;

  /**
   * The suppression list: set on unsubscribe, complaint and hard bounce, cleared only by a new
   * confirmation. While set, no newsletter is sent to the address; while it is a complaint or a
   * bounce, not even a confirmation mail (a sign-up form cannot be used to mail them again).
   */
  @Prop({ type: Object, default: null })
  suppressed!: { reason: SuppressionReason; at: Date } | null;

  /** Resend throttle (NewsletterService#mayMail): the last confirmation mail and the count of the day. */
  @Prop({ type: Date, default: null })
  lastConfirmMailAt!: Date | null;

  @Prop({ type: String, default: null })
  mailDay!: string | null;

  @Prop({ type: Number, default: 0 })
  mailDayCount!: number;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const NewsletterSubscriberSchema = SchemaFactory.createForClass(NewsletterSubscriber);
/**
 * The admin list's filter, order and per-state counts (NewsletterService#list, #counts) and the
 * campaign's pages of confirmed, unsuppressed addresses (#confirmedFrom): answered from indexes on
 * the embedded database (docs/database.md, "Pages and counts decided by SQLite").
 */
NewsletterSubscriberSchema.index({ state: 1 });
NewsletterSubscriberSchema.index({ createdAt: -1 });
NewsletterSubscriberSchema.index({ suppressed: 1 });
