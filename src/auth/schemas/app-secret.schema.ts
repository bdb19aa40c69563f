import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Secrets generated on first start when none is configured, shared by every instance. */
@Schema({ collection: 'app_secrets', versionKey: false })
export class AppSecret {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  value!: string;

  @Prop({ required: true })
  createdAt!: Date;
}

export const AppSecretSchema = SchemaFactory.createForClass(AppSecret);
