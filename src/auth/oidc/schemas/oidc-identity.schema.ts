import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/**
 * A provider account linked to a Hitscope account. The link is by the provider's stable subject,
 * never by e-mail: once linked, the provider may change the address and the same person still
 * lands in the same account. Kept beside the users collection, not inside it.
 */
@Schema({ collection: 'oidc_identities', versionKey: false })
export class OidcIdentity {
  /** The issuer identifier from the provider's validated metadata. */
  @Prop({ type: String, required: true })
  issuer!: string;

  /** The ID token's `sub`: unique and never reassigned within its issuer. */
  @Prop({ type: String, required: true })
  subject!: string;

  @Prop({ type: Types.ObjectId, required: true, index: true })
  userId!: Types.ObjectId;

  /** The provider's address when the link was made (for support; never used to sign in). */
  @Prop({ type: String, default: null })
  emailAtLink!: string | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, required: true })
  lastSignInAt!: Date;
}

export const OidcIdentitySchema = SchemaFactory.createForClass(OidcIdentity);
OidcIdentitySchema.index({ issuer: 1, subject: 1 }, { unique: true });
