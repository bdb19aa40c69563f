import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** The newsletter's sender and the transport's sending limits: one document, `_id: 'newsletter'`. */
@Schema({ collection: 'newsletter_settings', versionKey: false })
export class NewsletterSettingsDocument {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  senderName!: string;

  @Prop({ type: String, required: true })
  senderAddress!: string;

  @Prop({ type: String, default: null })
  replyTo!: string | null;

  @Prop({ type: Number, default: null })
  maxPerSecond!: number | null;

  @Prop({ type: Number, default: null })
  maxPerHour!: number | null;

  @Prop({ type: Number, default: null })
  maxPerDay!: number | null;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const NewsletterSettingsSchema = SchemaFactory.createForClass(NewsletterSettingsDocument);

/**
 * Messages sent by every instance in one window of the transport's limits: `_id` `s:<epoch second>`,
 * `h:<epoch hour>` or `d:<epoch day>`. Slots are claimed by compare-and-set on `n` (no transaction
 * needed), and documents of past windows are swept.
 */
@Schema({ collection: 'newsletter_send_windows', versionKey: false })
export class SendWindow {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Number, required: true })
  n!: number;

  @Prop({ type: Date, required: true, index: true })
  endsAt!: Date;
}

export const SendWindowSchema = SchemaFactory.createForClass(SendWindow);
