import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** The analytics settings: one document, `_id: 'analytics'`. */
@Schema({ collection: 'analytics_settings', versionKey: false })
export class AnalyticsSettingsDoc {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: [String], default: [] })
  ignoreIps!: string[];

  @Prop({ type: [String], default: [] })
  ignorePaths!: string[];

  @Prop({ type: Number, required: true })
  retentionDays!: number;

  @Prop({ type: Boolean, required: true })
  respectPrivacySignals!: boolean;

  @Prop({ type: Boolean, required: true })
  countAdmins!: boolean;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const AnalyticsSettingsSchema = SchemaFactory.createForClass(AnalyticsSettingsDoc);
