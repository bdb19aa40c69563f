import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { type HydratedDocument, Schema as MongooseSchema } from 'mongoose';

/** Who did it: kept as id and e-mail at the time, so the entry stays readable if the account changes. */
@Schema({ _id: false, versionKey: false })
export class AuditActor {
  @Prop({ type: String, required: true })
  id!: string;

  @Prop({ type: String, required: true })
  email!: string;
}

/** What it was done to. `label` is a human-readable name at the time (e.g. the user's e-mail). */
@Schema({ _id: false, versionKey: false })
export class AuditTarget {
  @Prop({ type: String, required: true })
  type!: string;

  @Prop({ type: String, required: true })
  id!: string;

  @Prop({ type: String, default: '' })
  label!: string;
}

/**
 * One administrative action: append-only, never updated. `before`/`after` hold only the fields the
 * action changed (never secrets). Listed newest first, optionally for one target.
 */
@Schema({ collection: 'audit_log', versionKey: false })
export class AuditEntry {
  @Prop({ type: Date, required: true })
  at!: Date;

  @Prop({ type: SchemaFactory.createForClass(AuditActor), required: true })
  actor!: AuditActor;

  @Prop({ type: String, required: true })
  action!: string;

  @Prop({ type: SchemaFactory.createForClass(AuditTarget), required: true })
  target!: AuditTarget;

  @Prop({ type: MongooseSchema.Types.Mixed, default: null })
  before!: Record<string, unknown> | null;

  @Prop({ type: MongooseSchema.Types.Mixed, default: null })
  after!: Record<string, unknown> | null;
}

export type AuditEntryDocument = HydratedDocument<AuditEntry>;
export const AuditEntrySchema = SchemaFactory.createForClass(AuditEntry);
AuditEntrySchema.index({ at: -1 });
AuditEntrySchema.index({ 'target.id': 1, at: -1 });
