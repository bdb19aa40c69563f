import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';

/**
 * Every site setting lives in one document (`_id: 'site'`): a page reads them all with one `_id`
 * lookup (the cheapest query on FerretDB), and saving a section is one `$set` of that section, so
 * two admins saving different sections never overwrite each other. A missing section means "the
 * default" (see site-settings.defaults.ts).
 */
@Schema({ collection: 'site_settings', versionKey: false })
export class SiteSettingsRecord {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: MongooseSchema.Types.Mixed })
  general?: unknown;

  @Prop({ type: MongooseSchema.Types.Mixed })
  registration?: unknown;

  @Prop({ type: MongooseSchema.Types.Mixed })
  announcement?: unknown;

  @Prop({ type: MongooseSchema.Types.Mixed })
  sponsors?: unknown;

  @Prop({ type: MongooseSchema.Types.Mixed })
  contact?: unknown;

  @Prop({ type: MongooseSchema.Types.Mixed })
  privacy?: unknown;

  @Prop({ type: MongooseSchema.Types.Mixed })
  terms?: unknown;

  @Prop()
  updatedAt?: Date;
}

export const SiteSettingsSchema = SchemaFactory.createForClass(SiteSettingsRecord);

/** The announcement version a signed-in person dismissed (`_id` is their user id), so it holds on every device. */
@Schema({ collection: 'announcement_dismissals', versionKey: false })
export class AnnouncementDismissal {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  version!: string;

  @Prop({ required: true })
  at!: Date;
}

export const AnnouncementDismissalSchema = SchemaFactory.createForClass(AnnouncementDismissal);
