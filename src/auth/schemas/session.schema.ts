import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { type HydratedDocument, Types } from 'mongoose';

/**
 * A signed-in session, which is also its refresh-token family. The refresh token is stored only as
 * a SHA-256 hash and rotates on every use; presenting an already-rotated token (other than the
 * immediately previous one within a short grace period, for two tabs refreshing at once) is a
 * reuse and revokes the whole session. Expiry is checked in code and swept: FerretDB has no TTL.
 */
@Schema({ collection: 'sessions', versionKey: false })
export class Session {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Types.ObjectId, required: true, index: true })
  userId!: Types.ObjectId;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  /** Absolute lifetime: never extended by refreshing. */
  @Prop({ type: Date, required: true, index: true })
  expiresAt!: Date;

  /** Idle lifetime of the current refresh token. */
  @Prop({ type: Date, required: true })
  refreshExpiresAt!: Date;

  @Prop({ type: String, required: true })
  refreshHash!: string;

  @Prop({ type: String, default: null })
  previousRefreshHash!: string | null;

  @Prop({ type: Date, default: null })
  rotatedAt!: Date | null;

  @Prop({ type: Date, default: null })
  revokedAt!: Date | null;

  @Prop({ type: String, default: null })
  revokedReason!: string | null;

  @Prop({ type: String, default: '' })
  userAgent!: string;
}

export type SessionDocument = HydratedDocument<Session>;
export const SessionSchema = SchemaFactory.createForClass(Session);
