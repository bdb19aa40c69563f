import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type BatchedInsert, InsertBatcher } from '../database/insert-batcher.js';
import { DUPLICATE_KEY } from '../database/upsert.js';
import { MAIL_TRANSPORT, type MailTransport, smtpTransport } from './mail-transport.js';
import { OutboxMessage } from './schemas/outbox-message.schema.js';

export interface MailInput {
  to: string;
  subject: string;
  text: string;
  html?: string;
  idempotencyKey?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058) on newsletter mail. */
  headers?: Record<string, string>;
}

export const MAX_ATTEMPTS = 8;
const POLL_MS = 5000;
const LOCK_MS = 60_000;
/** 5 s, 20 s, 45 s … capped at 30 minutes. */
export const retryDelayMs = (attempts: number) => Math.min(5000 * attempts * attempts, 30 * 60_000);

@Injectable()
export class MailService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: MailTransport | null;
  private poller: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private stopped = false;
  /** enqueue's inserts, grouped with those of other callers at the same moment (a burst of webhook events). */
  private readonly inserts: InsertBatcher<OutboxMessage>;

  constructor(
    @InjectModel(OutboxMessage.name) private readonly outbox: Model<OutboxMessage>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(MAIL_TRANSPORT) transport?: MailTransport,
  ) {
    this.transport = transport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : null);
    this.inserts = new InsertBatcher(outbox);
  }

  onModuleInit(): void {
    if (!this.transport) return;
    this.poller = setInterval(() => this.kick(), POLL_MS);
    this.poller.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    await this.draining;
    this.transport?.close();
  }

  /**
   * Stores the message, then wakes the worker. With no SMTP server configured the message stays in
   * the outbox (status `stored`) and is written to the log, so nothing is silently dropped.
   *
   * With an idempotency key the Message-ID is derived from the key, so the outbox's unique index on
   * it stores one message even when two callers enqueue the same key at the same moment (a webhook
   * and a success page fulfilling one order): the second insert is a duplicate key, answered with
   * the same id. No read first: on the embedded database a query by any field but `_id` reads the
   * whole outbox, and the insert decides anyway.
   */
  async enqueue(input: MailInput): Promise<string> {
    const host = new URL(this.config.publicUrl).hostname;
    const messageId = input.idempotencyKey
      ? `<${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 40)}@${host}>`
      : `<${randomUUID()}@${host}>`;
    if ((await this.insert(input, messageId, input.idempotencyKey ?? null)) === 'duplicate') {
      if (input.idempotencyKey) return messageId;
      throw Object.assign(new Error(`Message ${messageId} is in the outbox already`), { code: DUPLICATE_KEY });
    }
    if (!this.transport) {
      this.logger.log(`Mail (no SMTP_URL, kept in outbox) to ${input.to}: ${input.subject}\n${input.text}`);
    } else {
      this.kick();
    }
    return messageId;
  }

  /**
   * Stores one message under the caller's own Message-ID (a campaign delivery's, derived from the
   * delivery): the outbox's unique index on it makes a second call a no-op, so a retried caller
   * stores it once, without the idempotency-key lookup of `enqueue` (a read of the outbox per
   * message, which a campaign of thousands cannot afford). With no SMTP server it is kept, not logged
   * in full (a campaign would flood the log); with one, the outbox worker sends it.
   */
  async store(input: MailInput & { messageId: string }): Promise<void> {
    if ((await this.insert(input, input.messageId, null)) === 'inserted' && this.transport) this.kick();
  }

  /** One message into the outbox, with those stored at the same moment: 'duplicate' when its Message-ID is there already. */
  private insert(input: MailInput, messageId: string, idempotencyKey: string | null): Promise<BatchedInsert> {
    return this.inserts.insert({
      messageId,
      idempotencyKey,
      to: input.to,
      subject: input.subject,
      text: input.text,
      html: input.html ?? null,
      headers: input.headers ?? null,
      status: this.transport ? 'pending' : 'stored',
      nextAttemptAt: new Date(),
      createdAt: new Date(),
    } as OutboxMessage);
  }

  /** Starts a drain unless one is running. */
  kick(): void {
    if (this.stopped || this.draining || !this.transport) return;
    this.draining = this.drain()
      .catch((error: Error) => this.logger.warn(`Outbox drain failed: ${error.message}`))
      .finally(() => {
        this.draining = null;
      });
  }

  /** Sends every due message. Claims are atomic, so several instances never send the same one twice at once. */
  async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = new Date();
      const claimed = await this.outbox
        .findOneAndUpdate(
          {
            $or: [
              { status: 'pending', nextAttemptAt: { $lte: now } },
              { status: 'sending', lockedUntil: { $lt: now } }, // a worker died mid-send
            ],
          },
          { $set: { status: 'sending', lockedUntil: new Date(now.getTime() + LOCK_MS) }, $inc: { attempts: 1 } },
          { returnDocument: 'after', sort: { nextAttemptAt: 1 } },
        )
        .lean()
        .exec();
      if (!claimed) return;
      try {
        await this.transport!.send({
          from: this.config.mailFrom,
          to: claimed.to,
          subject: claimed.subject,
          text: claimed.text,
          html: claimed.html,
          messageId: claimed.messageId,
          headers: claimed.headers ?? undefined,
        });
        await this.outbox
          .updateOne({ _id: claimed._id }, { $set: { status: 'sent', sentAt: new Date(), lockedUntil: null, lastError: null } })
          .exec();
      } catch (error) {
        const failed = claimed.attempts >= MAX_ATTEMPTS;
        const message = (error as Error).message?.slice(0, 500) ?? String(error);
        this.logger.warn(`Sending ${claimed.messageId} failed (attempt ${claimed.attempts}): ${message}`);
        await this.outbox
          .updateOne(
            { _id: claimed._id },
            {
              $set: {
                status: failed ? 'failed' : 'pending',
                nextAttemptAt: new Date(Date.now() + retryDelayMs(claimed.attempts)),
                lockedUntil: null,
                lastError: message,
              },
            },
          )
          .exec();
      }
    }
  }
}
