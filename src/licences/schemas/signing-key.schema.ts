import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Ed25519 keys that sign leases. `_id: 'current'` is the key in use (the first instance to insert
 * it wins, so all instances sign with the same key); a rotation copies it to `retired:<kid>`, whose
 * public key stays published until `publishUntil` (longer than any lease lives, grace included).
 */
@Schema({ collection: 'signing_keys', versionKey: false })
export class SigningKey {
  @Prop({ type: String, required: true })
  _id!: string;

  /** RFC 7638 thumbprint of the public key. */
  @Prop({ type: String, required: true })
  kid!: string;

  /** The public key's `x` (base64url of the 32 raw bytes). */
  @Prop({ type: String, required: true })
  publicKey!: string;

  /** PKCS#8 DER of the private key, AES-256-GCM encrypted like the licence keys. */
  @Prop({ type: String, required: true })
  privateKeyCiphertext!: string;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, default: null })
  retiredAt!: Date | null;

  @Prop({ type: Date, default: null })
  publishUntil!: Date | null;
}

export const SigningKeySchema = SchemaFactory.createForClass(SigningKey);
