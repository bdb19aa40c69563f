import { createHash } from 'node:crypto';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One device activation, as an event: inserted when a device takes a seat, never updated, and not
 * deleted with the device (deactivating deletes the activation, and the count of activations
 * made today must not drop with it). Insert-only with a natural `_id`, so it needs no transaction
 * and a retry writes nothing twice (FerretDB, docs/database.md).
 *
 * `_id` is the SHA-256 of the activation's id and the random claim of the seat it took, so it is
 * the same for every write about one binding (a retried activation hits E11000) and new for a
 * device that activates again after a release or a deactivation. Nothing in it names a person or a
 * device once the activation is gone: it is not account data (docs/licensing.md).
 */
@Schema({ collection: 'licence_activation_events', versionKey: false })
export class LicenceActivationEvent {
  @Prop({ type: String, required: true })
  _id!: string;

  /** When the device activated (the activation's `activatedAt`). */
  @Prop({ type: Date, required: true, index: true })
  at!: Date;
}

export const LicenceActivationEventSchema = SchemaFactory.createForClass(LicenceActivationEvent);

/** The event of one binding of an activation to a seat (`claim` is random per binding). */
export const activationEventId = (activationId: string, claim: string) =>
  createHash('sha256').update(`${activationId}\n${claim}`).digest('hex');
