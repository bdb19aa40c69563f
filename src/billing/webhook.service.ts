import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import Stripe from 'stripe';
import type { SessionUser } from '../../lib/api/auth.js';
import type { WebhookEventList, WebhookEventStatus } from '../../lib/api/billing.js';
import type { OverviewWebhooks } from '../../lib/api/overview.js';
import { AuditService } from '../audit/audit.service.js';
import { ReadCache } from '../common/read-cache.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { INBOX_CONNECTION } from '../database/database.module.js';
import { InsertBatcher } from '../database/insert-batcher.js';
import { KeyedTurns } from '../database/keyed-turns.js';
import { UpdateBatcher } from '../database/update-batcher.js';
import { BillingException } from './billing.exception.js';
import { BILLING_POLL_MS } from './billing-poll.js';
import { StripeEventPayload, StripeEventRecord } from './schemas/billing.schemas.js';
import { type Clock, systemClock, WEBHOOK_CLOCK } from './webhook-clock.js';
import { HANDLED_EVENTS, NotReadyError, type StripeEventLike, StripeEventsService, subjectOf } from './stripe-events.service.js';

/** Stripe's own default: a signature older than this is a replay. */
export const SIGNATURE_TOLERANCE_S = 300;
/** Back-off after the 1st, 2nd … failed attempt; after the last, the event is `dead` (admins look). */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
const LEASE_MS = 60_000;
const POLL_MS = 15_000;
/**
 * Events one instance processes at once as they arrive. Their reads and writes are grouped across
 * events (BillingBatches, src/database/*-batcher.ts), so events at the same stage share commands:
 * 32 at once cost 6.1–6.6 ms of database CPU per event against 8.1 with 8 at once (`npm run bench`,
 * webhooks); 64 measured the same as 32. Events of one subject take turns (subjectOf), so those of
 * one purchase never race each other. (Before the grouping, a burst of hundreds started at once made
 * operations wait past the driver's 2.5 s bound.)
 */
export const PROCESS_CONCURRENCY = 32;
/** Arrived events waiting for a slot; beyond this they are stored `pending`, for the worker's next tick. */
const MAX_WAITING = 1000;
/**
 * How long, and for how many events, this instance remembers that an event is stored: a redelivery
 * meanwhile (Stripe's, while the first is being answered or processed) is answered without asking
 * the database, whose answer could only be "duplicate": records are never deleted.
 */
const STORED_LATELY_MS = 3_600_000;
const STORED_LATELY_MAX = 10_000;
/** The admin inbox lists this many events, newest first. */
const LIST_SIZE = 50;
/** Up to this many matching events, the admin inbox reads them all by status and sorts them itself. */
const FEW_TO_SORT_HERE = 500;

export { BILLING_POLL_MS } from './billing-poll.js';

/**
 * The webhook inbox. A delivery is verified, stored under its event id (a redelivery is a
 * duplicate key: answered 200, nothing done), and only then answered; processing happens after
 * the answer, and a worker claims what is pending or failed with a lease, so an instance that
 * dies mid-event leaves it to another one after the lease.
 *
 * An event this instance will process itself is stored already claimed (`processing`, its first
 * attempt, under a lease), so no claim follows; deliveries that arrive together are stored
 * together (InsertBatcher: one insert per collection for a burst, not one per delivery). On the
 * embedded database every command is a round trip on its one connection: these two took 5 of the
 * ~20 commands an event cost in `npm run bench`'s webhook run.
 */
@Injectable()
export class WebhookService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('StripeWebhooks');
  private poller: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly running = new Set<Promise<unknown>>();
  private active = 0;
  private readonly waiting: Array<() => Promise<void>> = [];
  /**
   * Events this instance received and will process (running or waiting for a slot): the worker's
   * drain leaves them alone. Otherwise a tick during a burst claims the waiting ones first, each
   * read back with its body, and their own claim then fails: 240 wasted claims and 156 reads for
   * 300 events in `npm run bench`'s webhook run.
   */
  private readonly queued = new Set<string>();
  private readonly payloadWrites: InsertBatcher<StripeEventPayload>;
  private readonly recordWrites: InsertBatcher<StripeEventRecord>;
  /** Events of one subject (subjectOf) one after the other; of different subjects, at once. */
  private readonly subjects = new KeyedTurns();
  /** Events this instance stored or found stored lately (STORED_LATELY_MS). */
  private readonly storedLately = new ReadCache<true>(STORED_LATELY_MS, STORED_LATELY_MAX);
  /** Each processed event's outcome (done, failed, dead), written together with those of the events finished meanwhile. */
  private readonly outcomes: UpdateBatcher<StripeEventRecord>;

  constructor(
    @InjectModel(StripeEventRecord.name) private readonly inbox: Model<StripeEventRecord>,
    @InjectModel(StripeEventPayload.name) private readonly payloads: Model<StripeEventPayload>,
    @InjectModel(StripeEventRecord.name, INBOX_CONNECTION) inboxInserts: Model<StripeEventRecord>,
    @InjectModel(StripeEventPayload.name, INBOX_CONNECTION) payloadInserts: Model<StripeEventPayload>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: StripeEventsService,
    private readonly audit: AuditService,
    @Optional() @Inject(BILLING_POLL_MS) private readonly pollMs: number = POLL_MS,
    @Optional() @Inject(WEBHOOK_CLOCK) private readonly clock: Clock = systemClock,
  ) {
    // Stored on a connection of their own (INBOX_CONNECTION): a delivery is answered without waiting
    // behind the processing of the events before it. Both documents are built whole in receive():
    // stored as they are (lean), not hydrated and validated by Mongoose at every delivery.
    this.payloadWrites = new InsertBatcher(payloadInserts, 100, true);
    this.recordWrites = new InsertBatcher(inboxInserts, 100, true);
    this.outcomes = new UpdateBatcher(inbox);
  }

  onModuleInit(): void {
    if (!this.config.stripe || this.pollMs <= 0) return;
    this.poller = setInterval(() => this.track(this.drain()), this.pollMs);
    this.poller.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    this.waiting.length = 0;
    await Promise.allSettled([...this.running]);
    // The events still waiting for a slot were stored claimed by this instance: given back, so the
    // next start (or another instance) takes them at its next tick rather than after their lease.
    // Should the database not answer now, the lease runs out and they are taken then.
    const waiting = [...this.queued];
    this.queued.clear();
    if (waiting.length) {
      await this.inbox
        .updateMany(
          { _id: { $in: waiting }, status: 'processing', attempts: 1 },
          { $set: { status: 'pending', attempts: 0, leaseUntil: null } },
        )
        .exec()
        .catch((error: Error) => this.logger.warn(`Unclaiming ${waiting.length} waiting events: ${error.message}`));
    }
  }

  /** Verifies the signature against each configured secret (rotation); throws a 400 otherwise. */
  verify(rawBody: Buffer | undefined, signature: string | undefined): { event: StripeEventLike; raw: string } {
    const stripe = this.config.stripe;
    if (!stripe) throw BillingException.notConfigured();
    if (!rawBody?.length || !signature) throw BillingException.signatureInvalid();
    for (const secret of stripe.webhookSecrets) {
      try {
        const event = Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_S) as unknown as StripeEventLike;
        return { event, raw: rawBody.toString('utf8') };
      } catch {
        // try the next secret
      }
    }
    throw BillingException.signatureInvalid();
  }

  /**
   * Stores a verified event; answers once it is stored (a database failure throws: 503, Stripe
   * retries). Processing starts after the answer. Answers false for a redelivery: at once for one
   * this instance stored lately, otherwise when the database says the event is already there.
   */
  async receive({ event, raw }: { event: StripeEventLike; raw: string }): Promise<boolean> {
    if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number' || !event.data?.object) {
      throw BillingException.signatureInvalid();
    }
    if (this.storedLately.peek(event.id)) return false;
    const handled = HANDLED_EVENTS.has(event.type);
    // The body first, the record second: a record (what makes the event "stored") always has its
    // body. A failure between the two answers 503, and Stripe's redelivery finds the body there.
    if (handled) await this.payloadWrites.insert({ _id: event.id, payload: raw });
    // Processed here (a slot or a place in the queue is free): stored as claimed by this instance.
    const local = handled && !this.stopped && this.waiting.length < MAX_WAITING;
    const now = new Date(this.clock.now());
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const stored = await this.recordWrites.insert({
      _id: event.id,
      type: event.type,
      created: event.created,
      apiVersion: event.api_version ?? null,
      payload: null,
      status: !handled ? 'ignored' : local ? 'processing' : 'pending',
      attempts: local ? 1 : 0,
      nextAttemptAt: handled ? now : null,
      leaseUntil: local ? leaseUntil : null,
      outcome: handled ? null : 'not handled',
      receivedAt: now,
      processedAt: null,
    });
    this.storedLately.remember(event.id, true);
    if (stored === 'duplicate') return false;
    if (local) {
      this.queued.add(event.id);
      this.enqueue(() => this.processReceived(event, raw, leaseUntil).finally(() => this.queued.delete(event.id)));
    }
    return true;
  }

  /**
   * Runs `work` when one of the PROCESS_CONCURRENCY slots is free (after the answer is sent). The
   * queue's bound (MAX_WAITING) is checked before an event is stored as this instance's.
   */
  private enqueue(work: () => Promise<void>): void {
    if (this.active >= PROCESS_CONCURRENCY) {
      this.waiting.push(work);
      return;
    }
    this.active += 1;
    // Tracked at once (settle() and shutdown wait for it), started after the current I/O callbacks.
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(work).finally(() => {
        this.active -= 1;
        const next = this.stopped ? undefined : this.waiting.shift();
        if (next) this.enqueue(next);
      }),
    );
  }

  private track(work: Promise<unknown>): void {
    const settled = work.catch((error: Error) => this.logger.warn(`Webhook processing: ${error.message}`));
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
  }

  /** Processes every event that is due (the worker's tick; tests call it directly). Answers how many. */
  async drain(now = () => new Date(), limit = 500): Promise<number> {
    let count = 0;
    while (!this.stopped && count < limit) {
      const candidates = await this.due(now(), Math.min(50, limit - count));
      if (!candidates.length) break;
      let claimedAny = false;
      for (const candidate of candidates) {
        if (this.stopped) break;
        if (this.queued.has(candidate._id)) continue;
        claimedAny = true;
        const claimed = await this.claim(candidate, now());
        if (!claimed) continue;
        await this.process(claimed, now());
        count += 1;
      }
      // Only events this instance is about to process are due: they are its to finish.
      if (!claimedAny) break;
    }
    return count;
  }

  /**
   * The inbox for admins: counts per status and the newest events of the given statuses. Few of
   * them (the default view, failed and dead, is usually empty among thousands of done events) are
   * read through the status index and sorted here; the newest first walks the arrival index, which
   * on the embedded database reads every newer event of other statuses on the way (72 ms at 10 000
   * done events for an empty answer, growing with the inbox).
   */
  async list(statuses: readonly WebhookEventStatus[]): Promise<WebhookEventList> {
    const counts = await this.countsByStatus();
    const newest = await this.newest(
      statuses,
      statuses.reduce((sum, status) => sum + (counts[status] ?? 0), 0),
    );
    return {
      counts,
      events: newest.map((record) => ({
        id: record._id,
        type: record.type,
        createdAt: new Date(record.created * 1000).toISOString(),
        receivedAt: record.receivedAt.toISOString(),
        status: record.status,
        attempts: record.attempts,
        nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
        outcome: record.outcome,
      })),
    };
  }

  private async newest(statuses: readonly WebhookEventStatus[], matching: number): Promise<StripeEventRecord[]> {
    const query = this.inbox.find({ status: { $in: statuses } });
    if (matching > FEW_TO_SORT_HERE) return query.sort({ receivedAt: -1 }).limit(LIST_SIZE).lean<StripeEventRecord[]>().exec();
    const all = await query.lean<StripeEventRecord[]>().exec();
    return all.sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime()).slice(0, LIST_SIZE);
  }

  /** The overview's webhook card: when the newest event arrived and what is stuck or waiting. */
  async health(): Promise<OverviewWebhooks> {
    const [counts, newest] = await Promise.all([
      this.countsByStatus(),
      this.inbox.findOne({}, { _id: 0, receivedAt: 1 }).sort({ receivedAt: -1 }).lean<Pick<StripeEventRecord, 'receivedAt'>>().exec(),
    ]);
    return {
      configured: Boolean(this.config.stripe),
      lastReceivedAt: newest?.receivedAt.toISOString() ?? null,
      failed: counts.failed ?? 0,
      dead: counts.dead ?? 0,
      unprocessed: (counts.pending ?? 0) + (counts.processing ?? 0),
    };
  }

  private async countsByStatus(): Promise<WebhookEventList['counts']> {
    const groups = await this.inbox
      .aggregate<{ _id: WebhookEventStatus; n: number }>([{ $group: { _id: '$status', n: { $sum: 1 } } }])
      .exec();
    return Object.fromEntries(groups.map((group) => [group._id, group.n]));
  }

  /**
   * An admin asks for another try of a failed or dead event (after fixing what made it fail): it
   * is due now with a fresh back-off, and processed at once. Answers false for any other status.
   */
  async retry(actor: SessionUser, id: string): Promise<boolean> {
    const record = await this.inbox.findById(id).lean<StripeEventRecord>().exec();
    if (!record || (record.status !== 'failed' && record.status !== 'dead')) return false;
    const reset = await this.inbox
      .updateOne(
        { _id: id, status: record.status, attempts: record.attempts },
        { $set: { status: 'pending', attempts: 0, nextAttemptAt: new Date() } },
      )
      .exec();
    if (reset.modifiedCount !== 1) return false;
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: 'billing.event.retry',
      target: { type: 'stripe_event', id, label: record.type },
      before: { status: record.status, attempts: record.attempts },
      after: { status: 'pending', attempts: 0 },
    });
    const now = new Date();
    const claimed = await this.claim({ _id: id, status: 'pending', attempts: 0 }, now);
    if (claimed) await this.process(claimed, now);
    return true;
  }

  /** Waits for the processing started by deliveries (tests). */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /**
   * Straight after the answer: the event is in hand and stored claimed by this instance until
   * `leaseUntil`. One that waited for a slot for half its lease or more renews the lease first
   * (compare-and-set on the lease it was stored with), so another instance's worker cannot take it
   * meanwhile; if that already happened, it is the other instance's.
   */
  private async processReceived(event: StripeEventLike, raw: string, leaseUntil: Date): Promise<void> {
    if (this.stopped) return;
    const now = new Date(this.clock.now());
    if (leaseUntil.getTime() - now.getTime() < LEASE_MS / 2) {
      const renewed = await this.inbox
        .updateOne({ _id: event.id, status: 'processing', leaseUntil }, { $set: { leaseUntil: new Date(now.getTime() + LEASE_MS) } })
        .exec();
      if (renewed.modifiedCount !== 1) return;
    }
    await this.process({ _id: event.id, type: event.type, payload: raw, attempts: 1 }, now, event);
  }

  /**
   * P4, as a compare-and-set: a candidate is claimed by an update whose filter holds the status and
   * attempt count it was read with, so of two workers that read the same event, one wins. (Not
   * findOneAndUpdate: FerretDB answers it by scanning the collection, measured at 30 ms with 150
   * events against 2 ms for an update by _id, so the inbox would slow down as it grows.)
   */
  private async claim(
    expected: { _id: string; status: StripeEventRecord['status']; attempts: number },
    now: Date,
  ): Promise<StripeEventRecord | null> {
    const claimed = await this.inbox
      .updateOne(expected, {
        $set: { status: 'processing', leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: expected.attempts + 1 },
      })
      .exec();
    if (claimed.modifiedCount !== 1) return null;
    return this.inbox.findById(expected._id).lean<StripeEventRecord>().exec();
  }

  /** What is due: pending or failed with the back-off over, or processing with the lease run out. */
  private due(now: Date, limit: number) {
    return this.inbox
      .find(
        {
          $or: [
            { status: { $in: ['pending', 'failed'] }, nextAttemptAt: { $lte: now } },
            { status: 'processing', leaseUntil: { $lt: now } },
          ],
        },
        { _id: 1, status: 1, attempts: 1 },
      )
      .sort({ nextAttemptAt: 1 })
      .limit(limit)
      .lean<Array<Pick<StripeEventRecord, '_id' | 'status' | 'attempts'>>>()
      .exec();
  }

  /** An event as it was stored: its body in the record (events stored before payloads had their own collection) or beside it. */
  private async storedEvent(record: Pick<StripeEventRecord, '_id' | 'payload'>): Promise<StripeEventLike> {
    const payload = record.payload ?? (await this.payloads.findById(record._id).lean<StripeEventPayload>().exec())?.payload;
    if (!payload) throw new Error(`The body of event ${record._id} is missing`);
    return JSON.parse(payload) as StripeEventLike;
  }

  /** Processes a claimed event: the one given (verified at its delivery here), else its stored body. */
  private async process(
    record: Pick<StripeEventRecord, '_id' | 'type' | 'payload' | 'attempts'>,
    now: Date,
    received?: StripeEventLike,
  ): Promise<void> {
    let outcome: string;
    try {
      const event = received ?? (await this.storedEvent(record));
      outcome = await this.subjects.run(subjectOf(event), () => this.events.handle(event));
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const delay = RETRY_DELAYS_MS[record.attempts - 1];
      if (!(error instanceof NotReadyError)) this.logger.warn(`Event ${record._id} (${record.type}) failed: ${message}`);
      await this.outcomes.updateOne(
        { _id: record._id, status: 'processing' },
        {
          $set: {
            status: delay === undefined ? 'dead' : 'failed',
            nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay),
            leaseUntil: null,
            outcome: message.slice(0, 500),
          },
        },
      );
      return;
    }
    await this.outcomes.updateOne(
      { _id: record._id, status: 'processing' },
      { $set: { status: 'done', leaseUntil: null, nextAttemptAt: null, outcome: outcome.slice(0, 500), processedAt: new Date() } },
    );
  }
}
