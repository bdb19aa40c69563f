import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

export const ACCOUNT_TOKEN_PURPOSES = ['verify-email', 'reset-password'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/** A single-use link token. Only its SHA-256 hash is stored (the `_id`); the raw token is only in the e-mail. */
@Schema({ collection: 'account_tokens', versionKey: false })
export class AccountToken {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, enum: ACCOUNT_TOKEN_PURPOSES })
  purpose!: AccountTokenPurpose;

  @Prop({ type: Types.ObjectId, required: true, index: true })
  userId!: Types.ObjectId;

  /** The address the token was sent to (verification is for that address only). */
  @Prop({ type: String, required: true })
  email!: string;

  @Prop({ type: Date, required: true, index: true })
  expiresAt!: Date;

  @Prop({ type: Date, default: null })
  usedAt!: Date | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;
}

export const AccountTokenSchema = SchemaFactory.createForClass(AccountToken);
