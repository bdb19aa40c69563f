import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed', 'stored'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * A message in the durable outbox. It is written before anything is sent, so a crash between
 * "decide to send" and "sent" loses nothing: the worker picks it up again. Delivery is
 * at-least-once; the Message-ID is fixed at enqueue time, so a retried message is recognisably the
 * same message to the receiving side.
 */
@Schema({ collection: 'mail_outbox', versionKey: false })
export class OutboxMessage {
  @Prop({ type: String, required: true, unique: true })
  messageId!: string;

  /** Optional caller key: enqueueing the same key twice stores one message. */
  @Prop({ type: String, default: null, index: true })
  idempotencyKey!: string | null;

  @Prop({ type: String, required: true })
  to!: string;

  @Prop({ type: String, required: true })
  subject!: string;

  @Prop({ type: String, required: true })
  text!: string;

  @Prop({ type: String, default: null })
  html!: string | null;

  @Prop({ type: Object, default: null })
  headers!: Record<string, string> | null;

  @Prop({ type: String, required: true, enum: OUTBOX_STATUSES, index: true })
  status!: OutboxStatus;

  @Prop({ type: Number, default: 0 })
  attempts!: number;

  @Prop({ type: Date, required: true, index: true })
  nextAttemptAt!: Date;

  @Prop({ type: Date, default: null })
  lockedUntil!: Date | null;

  @Prop({ type: String, default: null })
  lastError!: string | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, default: null })
  sentAt!: Date | null;
}

export type OutboxMessageDocument = HydratedDocument<OutboxMessage>;
export const OutboxMessageSchema = SchemaFactory.createForClass(OutboxMessage);
