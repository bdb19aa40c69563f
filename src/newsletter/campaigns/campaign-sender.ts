import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { PRODUCT } from '../../../lib/product.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { listUnsubscribeHeaders } from '../newsletter-mails.js';
import { NewsletterService } from '../newsletter.service.js';
import { deliveryMessageId, formatSender, renderCampaign, type RenderedCampaign } from './campaign-mail.js';
import { backoffAfter, CAMPAIGN_SENDER_OPTIONS, type CampaignSenderOptions } from './campaign-sender.options.js';
import { CAMPAIGN_TRANSPORT, type CampaignTransport, classifyFailure } from './campaign-transport.js';
import { NewsletterSettingsService } from './newsletter-settings.service.js';
import { CampaignRequeueLock } from './requeue-lock.js';
import { CampaignTurns } from './campaign-turns.js';
import { CampaignDelivery, type DeliveryStatus } from './schemas/campaign-delivery.schema.js';
import { CampaignSlice, SliceClaim, type SliceRecipient, SliceRecipients } from './schemas/campaign-slice.schema.js';
import { NewsletterCampaign } from './schemas/campaign.schema.js';
import { SendLimiter } from './send-limiter.js';
import { isDuplicateKey } from '../../database/upsert.js';

/** Due slices read per claim: the first whose ticket this worker gets is taken (others race for the rest). */
const CLAIM_CANDIDATES = 5;

/** Stands in for each recipient's own unsubscribe link in the once-rendered message. */
const LINK_PLACEHOLDER = 'https://unsubscribe.invalid/HITSCOPE-RECIPIENT-LINK';
const RATE_SAMPLE_MS = 2000;
const SWEEP_EVERY_MS = 60_000;
const WAIT_WORTH_NOTING_MS = 5000;
/** Addresses read at once to check who may still get the newsletter (the next slices' worth). */
const GATE_PAGE = 2000;
/** How old that answer may be: an unsubscribe reaches the sending within this time. */
const GATE_FRESH_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function mapLimit<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

type Outcome =
  | { recipient: SliceRecipient; ok: true; inserted: boolean }
  | { recipient: SliceRecipient; ok: false; kind: 'temporary' | 'permanent'; code: number | null; message: string };

type FinalDelivery = Omit<CampaignDelivery, 'sentAt'> & { sentAt: Date | null };

export const sliceId = (campaignId: string, n: number) => `${campaignId}:${n}`;
export const deliveryId = (campaignId: string, email: string) => `${campaignId}:${email}`;

/** The confirmed addresses from `from` to `to` (null: to the end of the list), as read at `at`. */
interface GateWindow {
  from: string;
  to: string | null;
  allowed: Set<string>;
  at: number;
}

/**
 * The campaign worker, one per app instance: it starts with the app and stops with it.
 *
 * The work is cut into slices (`newsletter_campaign_slices`, up to `batchSize` recipients each),
 * and only that small collection is ever searched: on FerretDB any filter but `_id` reads the whole
 * collection, and even an update by `_id` reads it (natively, but still in proportion to its size),
 * while an insert costs a millisecond whatever the size. So `newsletter_deliveries`, which holds
 * every campaign's recipients, is only inserted into while sending. Each step is safe to repeat or
 * to be cut short, because FerretDB has no transactions:
 * - the recipient snapshot copies confirmed subscribers page by page into slices (their
 *   recipients in `newsletter_slice_recipients`, then the slice), under a lease on the campaign
 *   with a cursor; a slice becomes claimable once the campaign has recorded it (`n < slices`), and
 *   a step cut short leaves slices the next step adopts (found by `_id`), so nobody is copied twice;
 * - a worker claims one due slice with a conditional `findOneAndUpdate` (lease, owner and a `claim`
 *   id); only that claim's holder writes the slice back. A worker that dies leaves a lease that runs
 *   out, and the next claim takes the slice over: it first asks which of its recipients already have
 *   a final delivery (sent before the crash) and sends only the others, with the same Message-ID;
 * - a final outcome is an insert of the delivery `<campaign>:<address>`: a second insert of the same
 *   recipient fails on the unique `_id`, so the campaign's counters, moved by what was inserted,
 *   count each recipient once (and are recounted absolutely when the campaign ends). Temporary
 *   failures stay in the slice with their attempts, error and next attempt time.
 */
@Injectable()
export class CampaignSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CampaignSender.name);
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly host: string;
  private poller: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastSweep = 0;
  private rendered = new Map<string, RenderedCampaign>();
  /**
   * Campaigns with nothing due (every recipient waits for a retry, or is in another worker's
   * hands) are not looked at again before this time.
   */
  private idleUntil = new Map<string, number>();
  /** Who may still get the newsletter, for the next slices (read once per page of the list, not per recipient). */
  private gate: GateWindow | null = null;

  constructor(
    @InjectModel(NewsletterCampaign.name) private readonly campaigns: Model<NewsletterCampaign>,
    @InjectModel(CampaignDelivery.name) private readonly deliveries: Model<CampaignDelivery>,
    @InjectModel(CampaignSlice.name) private readonly slices: Model<CampaignSlice>,
    @InjectModel(SliceRecipients.name) private readonly sliceRecipients: Model<SliceRecipients>,
    @InjectModel(SliceClaim.name) private readonly sliceClaims: Model<SliceClaim>,
    private readonly requeueLock: CampaignRequeueLock,
    private readonly turns: CampaignTurns,
    private readonly newsletter: NewsletterService,
    private readonly settings: NewsletterSettingsService,
    private readonly limiter: SendLimiter,
    @Inject(CAMPAIGN_TRANSPORT) private readonly transport: CampaignTransport,
    @Inject(CAMPAIGN_SENDER_OPTIONS) private readonly options: CampaignSenderOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.host = new URL(config.publicUrl).hostname;
  }

  onApplicationBootstrap(): void {
    this.poller = setInterval(() => this.kick(), this.options.pollMs);
    this.poller.unref();
    this.kick();
  }

  /**
   * Stops claiming, then waits a little for the messages in flight. Whatever is still out when
   * the grace ends keeps its lease and is taken over by another instance (or this one's next start).
   */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    if (this.running) await Promise.race([this.running, sleep(this.options.shutdownGraceMs)]);
    this.transport.close();
  }

  /** Something changed (send, resume, retry): look at every campaign again now, with a fresh look at the list. */
  wake(): void {
    this.idleUntil.clear();
    this.gate = null;
    this.kick();
  }

  /** Starts a round of work unless one runs (then it runs once more after it). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work()
      .catch((error: Error) => this.logger.warn(`Campaign worker round failed: ${error.message}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async work(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
        this.lastSweep = Date.now();
        await this.limiter.sweep();
      }
      const active = await this.campaigns.find({ state: 'sending' }).lean<NewsletterCampaign[]>().exec();
      if (active.length === 0) return;
      let progressed = false;
      let waitUntil: number | null = null;
      for (const campaign of active) {
        if (this.stopped) return;
        if ((this.idleUntil.get(campaign._id) ?? 0) > Date.now()) continue;
        if (!campaign.snapshotComplete && (await this.snapshotStep(campaign))) progressed = true;
        // Several slices at once; the round ends when all are settled, so nothing of this
        // instance is in flight when it decides that the campaign has finished or can rest.
        const results = await Promise.all(Array.from({ length: Math.max(1, this.options.slicesInFlight) }, () => this.sendBatch(campaign)));
        const waits = results.map((result) => result.waitUntil).filter((at): at is number => at !== null);
        if (results.some((result) => result.progressed)) progressed = true;
        // Held back by a limit, unless a lane had slots and found no slice: then nothing is
        // claimable, and a sibling held back must not hide that the campaign may have finished.
        else if (waits.length && !results.some((result) => result.empty)) {
          const until = Math.min(...waits);
          waitUntil = Math.min(waitUntil ?? Infinity, until);
          await this.noteWait(campaign, until);
          // An hour or day limit is reached: no claim (each one an increment and a hand-back on the
          // window's counter) until its window ends, or for a minute, so a raised limit is seen.
          if (until - Date.now() > this.options.pollMs) this.idleUntil.set(campaign._id, Math.min(until, Date.now() + 60_000));
        } else if (campaign.snapshotComplete) await this.finishOrRest(campaign._id);
      }
      if (progressed) continue;
      // Held back by a rate limit that frees up soon: wait for it rather than for the next poll.
      const wait = waitUntil === null ? Infinity : waitUntil - Date.now();
      if (wait > this.options.pollMs) return;
      await sleep(Math.max(wait, 5));
    }
  }

  /** A wait of more than a few seconds (an hour or day limit) is written down: the page's ETA counts from its end. */
  private async noteWait(campaign: NewsletterCampaign, until: number): Promise<void> {
    const known = campaign.waitingUntil ? new Date(campaign.waitingUntil).getTime() : null;
    if (until - Date.now() < WAIT_WORTH_NOTING_MS || known === until) return;
    await this.turns.run(campaign._id, () =>
      this.campaigns.updateOne({ _id: campaign._id, state: 'sending' }, { $set: { waitingUntil: new Date(until) } }).exec(),
    );
  }

  /* The recipient snapshot ---------------------------------------------------------------- */

  private newSlice(campaignId: string, id: string, n: number, now: Date): CampaignSlice {
    return { _id: id, campaignId, n, state: 'queued', nextAttemptAt: now, leaseUntil: null, leaseOwner: null, claim: null, version: 0 };
  }

  private freshRecipient(email: string): SliceRecipient {
    return { email, attempts: 0, nextAttemptAt: null, lastError: null, lastCode: null };
  }

  /** Copies the next page of confirmed subscribers into slices. Answers whether it did anything. */
  private async snapshotStep(campaign: NewsletterCampaign): Promise<boolean> {
    const now = new Date();
    const leased = await this.turns.run(campaign._id, () =>
      this.campaigns
        .findOneAndUpdate(
          {
            _id: campaign._id,
            state: 'sending',
            snapshotComplete: false,
            $or: [{ snapshotLeaseUntil: null }, { snapshotLeaseUntil: { $lt: now } }, { snapshotOwner: this.owner }],
          },
          { $set: { snapshotLeaseUntil: new Date(now.getTime() + this.options.leaseMs), snapshotOwner: this.owner } },
          { returnDocument: 'after' },
        )
        .lean<NewsletterCampaign>()
        .exec(),
    );
    if (!leased) return false;
    const recorded = leased.slices ?? 0;
    const record = async (slices: number, cursor: string | null, added: number, done: boolean) => {
      const result = await this.turns.run(leased._id, () =>
        this.campaigns
          .updateOne(
            // Compare-and-set on the slice count: a step whose lease was taken over records nothing.
            { _id: leased._id, snapshotOwner: this.owner, slices: leased.slices ?? { $in: [null, 0] } },
            {
              $inc: { total: added },
              $set: {
                slices,
                snapshotCursor: cursor,
                snapshotComplete: done,
                snapshotLeaseUntil: done ? null : new Date(Date.now() + this.options.leaseMs),
                snapshotOwner: done ? null : this.owner,
              },
            },
          )
          .exec(),
      );
      // The round's copy of the campaign learns it too: the slices just recorded are sent in this round.
      if (result.modifiedCount === 1) Object.assign(campaign, { slices, snapshotComplete: done });
    };

    // Slices a step cut short wrote but did not record: adopt them (by `_id`, in order), never copy them again.
    let n = recorded;
    let cursor = leased.snapshotCursor;
    let adopted = 0;
    for (;;) {
      const orphan = await this.sliceRecipients.findById(sliceId(leased._id, n)).lean<SliceRecipients>().exec();
      if (!orphan) break;
      await this.insertNew(this.slices, [this.newSlice(leased._id, orphan._id, n, now)]);
      cursor = orphan.recipients.at(-1)?.email ?? cursor;
      adopted += orphan.recipients.length;
      n += 1;
    }
    if (n > recorded) {
      await record(n, cursor, adopted, false);
      return true;
    }

    const emails = await this.newsletter.confirmedAfter(cursor, this.options.snapshotBatch);
    const size = this.options.batchSize;
    const chunks: string[][] = [];
    for (let start = 0; start < emails.length; start += size) chunks.push(emails.slice(start, start + size));
    // The recipients first, one slice at a time and in order: a step cut short leaves a prefix to adopt.
    let written = 0;
    for (const [index, chunk] of chunks.entries()) {
      const id = sliceId(leased._id, recorded + index);
      const inserted = await this.insertNew(this.sliceRecipients, [
        { _id: id, campaignId: leased._id, recipients: chunk.map((email) => this.freshRecipient(email)) },
      ]);
      // Someone else (a step whose lease ran out meanwhile) wrote this slice: the next step adopts it.
      if (inserted === 0) return true;
      written += 1;
    }
    await this.insertNew(
      this.slices,
      chunks.map((_, index) => this.newSlice(leased._id, sliceId(leased._id, recorded + index), recorded + index, now)),
    );
    const done = emails.length < this.options.snapshotBatch;
    await record(recorded + written, emails.at(-1) ?? cursor, emails.length, done);
    return emails.length > 0;
  }

  /** Inserts what is not there yet; a duplicate `_id` is skipped. Answers how many were new. */
  private async insertNew<T>(model: Model<T>, documents: T[]): Promise<number> {
    return (await this.insertAll(model, documents)).size;
  }

  /** Inserts what is not there yet (a duplicate `_id` is skipped) and answers the indexes that were new. */
  private async insertAll<T>(model: Model<T>, documents: T[]): Promise<Set<number>> {
    const all = new Set(documents.map((_, index) => index));
    if (documents.length === 0) return all;
    try {
      await model.collection.insertMany(documents as never[], { ordered: false });
      return all;
    } catch (error) {
      const bulk = error as {
        code?: number;
        writeErrors?: { code?: number; index?: number }[] | { code?: number; index?: number };
      };
      const writeErrors = Array.isArray(bulk.writeErrors) ? bulk.writeErrors : bulk.writeErrors ? [bulk.writeErrors] : [];
      if (writeErrors.length === 0 && isDuplicateKey(bulk) && documents.length === 1) return new Set();
      const onlyDuplicates =
        writeErrors.length > 0 && writeErrors.every((entry) => isDuplicateKey(entry) && typeof entry.index === 'number');
      if (!onlyDuplicates) throw error;
      for (const entry of writeErrors) all.delete(entry.index!);
      return all;
    }
  }

  /* Sending ------------------------------------------------------------------------------- */

  /**
   * Claims one due slice for `claim`: new, back from a retry wait, or left by a worker whose lease
   * ran out. A few candidates are read; for each, the ticket of the version seen is inserted
   * (`newsletter_slice_claims`, unique `_id`), and only the worker whose insert succeeds moves the
   * slice on. Answers the slice as it was before the claim, or null when none is claimable.
   */
  private async claimSlice(campaign: NewsletterCampaign, claim: string, now: number): Promise<CampaignSlice | null> {
    const at = new Date(now);
    const candidates = await this.slices
      .find({
        campaignId: campaign._id,
        n: { $lt: campaign.slices ?? 0 },
        $or: [
          { state: 'queued', nextAttemptAt: { $lte: at } },
          { state: 'sending', leaseUntil: { $lt: at } },
        ],
      })
      .limit(CLAIM_CANDIDATES)
      .lean<CampaignSlice[]>()
      .exec();
    for (const candidate of candidates) {
      try {
        await this.sliceClaims.create({ _id: `${candidate._id}@${candidate.version ?? 0}`, campaignId: campaign._id, claimedAt: at });
      } catch (error) {
        if (isDuplicateKey(error)) continue; // another worker took it at this version
        throw error;
      }
      await this.slices
        .updateOne(
          { _id: candidate._id },
          {
            $set: { state: 'sending', leaseUntil: new Date(now + this.options.leaseMs), leaseOwner: this.owner, claim },
            $inc: { version: 1 },
          },
        )
        .exec();
      return candidate;
    }
    return null;
  }

  private async sendBatch(campaign: NewsletterCampaign): Promise<{ progressed: boolean; waitUntil: number | null; empty?: boolean }> {
    const settings = await this.settings.get();
    const now = Date.now();
    const slots = await this.limiter.claim(this.options.batchSize, settings, now);
    if (slots.granted === 0) return { progressed: false, waitUntil: slots.retryAt };

    // The claim: one due slice (new, back from a retry wait, or left by a worker whose lease ran out).
    const claim = randomBytes(9).toString('base64url');
    const slice = await this.claimSlice(campaign, claim, now);
    if (!slice) {
      await this.limiter.release(slots.granted, settings, now);
      return { progressed: false, waitUntil: null, empty: true };
    }
    const held = await this.sliceRecipients.findById(slice._id).lean<SliceRecipients>().exec();
    if (!held) {
      // Its recipients went with the campaign's end or cancellation: nothing is left to send.
      await this.slices.deleteOne({ _id: slice._id, claim }).exec();
      await this.limiter.release(slots.granted, settings, now);
      return { progressed: true, waitUntil: null };
    }

    // Taken over from a worker whose lease ran out: who of these did it settle before it stopped?
    const settledBefore = new Set<string>();
    if (slice.state === 'sending') {
      const found = await this.deliveries
        .find({ _id: { $in: held.recipients.map((r) => deliveryId(campaign._id, r.email)) } }, { _id: 1 })
        .lean<{ _id: string }[]>()
        .exec();
      for (const delivery of found) settledBefore.add(delivery._id.slice(campaign._id.length + 1));
    }
    const open = held.recipients.filter((r) => !settledBefore.has(r.email));
    const due = open.filter((r) => !r.nextAttemptAt || new Date(r.nextAttemptAt).getTime() <= now);
    const taken = due.slice(0, slots.granted);
    if (taken.length < slots.granted) await this.limiter.release(slots.granted - taken.length, settings, now);

    // Someone who unsubscribed (or bounced, or complained, or was deleted) since the snapshot gets nothing.
    const allowed = await this.allowedAmong(taken.map((r) => r.email));
    const skipped = taken.filter((r) => !allowed.has(r.email));
    const toSend = taken.filter((r) => allowed.has(r.email));

    const content = this.render(campaign);
    const from = formatSender(settings.senderName, settings.senderAddress);
    const outcomes = await mapLimit(toSend, this.options.concurrency, async (recipient): Promise<Outcome> => {
      const page = this.newsletter.unsubscribePageUrl(recipient.email);
      try {
        await this.transport.send({
          from,
          replyTo: settings.replyTo,
          to: recipient.email,
          subject: content.subject,
          html: content.html.split(LINK_PLACEHOLDER).join(page),
          text: content.text.split(LINK_PLACEHOLDER).join(page),
          messageId: deliveryMessageId(campaign._id, recipient.email, this.host),
          headers: { ...listUnsubscribeHeaders(this.newsletter.unsubscribeUrl(recipient.email), from), Precedence: 'bulk' },
        });
      } catch (error) {
        return { recipient, ok: false, ...classifyFailure(error) };
      }
      // Recorded at once (an insert costs a millisecond): a worker that dies now and its slice's
      // next holder re-sends only what was in flight, not what had already gone.
      const inserted = await this.insertNew(this.deliveries, [
        this.finalDelivery(campaign._id, recipient, 'sent', recipient.attempts + 1, null, null),
      ]);
      return { recipient, ok: true, inserted: inserted === 1 };
    });

    await this.settle(campaign._id, slice._id, claim, held.recipients, settledBefore, outcomes, skipped);
    return { progressed: taken.length > 0 || settledBefore.size > 0, waitUntil: null };
  }

  private finalDelivery(
    campaignId: string,
    recipient: SliceRecipient,
    status: DeliveryStatus,
    attempts: number,
    lastError: string | null,
    lastCode: number | null,
  ): FinalDelivery {
    return {
      _id: deliveryId(campaignId, recipient.email),
      campaignId,
      email: recipient.email,
      status,
      attempts,
      lastError,
      lastCode,
      sentAt: status === 'sent' ? new Date() : null,
    };
  }

  /**
   * Which of these addresses may still get the newsletter (confirmed, not suppressed, not deleted).
   * One query answers for the next page's worth of the list (slices are in address order), at most
   * `GATE_FRESH_MS` old; an `_id` lookup per recipient reads the subscriber collection each time on
   * FerretDB (natively, but in proportion to its size: about 10 ms each for 10 000 subscribers).
   */
  private async allowedAmong(emails: string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const sorted = [...emails].sort();
    const covers = (gate: GateWindow | null, email: string) =>
      gate !== null && email >= gate.from && (gate.to === null || email <= gate.to) && Date.now() - gate.at < GATE_FRESH_MS;
    if (!emails.every((email) => covers(this.gate, email))) {
      const at = Date.now();
      const page = await this.newsletter.confirmedFrom(sorted[0], GATE_PAGE);
      this.gate = { from: sorted[0], to: page.length < GATE_PAGE ? null : page.at(-1)!, allowed: new Set(page), at };
    }
    const gate = this.gate!;
    const allowed = new Set(emails.filter((email) => gate.allowed.has(email)));
    // A "no" is final (the recipient is skipped for good), so it is never taken from a page read
    // earlier: whoever is missing from the page (unsubscribed, or confirmed after it was read) is
    // asked again, alone. That is the rare case; a "yes" may be up to GATE_FRESH_MS old.
    const missing = emails.filter((email) => !allowed.has(email));
    if (missing.length) for (const email of await this.newsletter.stillConfirmed(missing)) allowed.add(email);
    return allowed;
  }

  private render(campaign: NewsletterCampaign): RenderedCampaign {
    const key = `${campaign._id}:${new Date(campaign.updatedAt).getTime()}`;
    let rendered = this.rendered.get(key);
    if (!rendered) {
      rendered = renderCampaign(campaign, { unsubscribePage: LINK_PLACEHOLDER }, { name: PRODUCT.name, publicUrl: this.config.publicUrl });
      if (this.rendered.size > 20) this.rendered.clear();
      this.rendered.set(key, rendered);
    }
    return rendered;
  }

  /**
   * Records the outcomes: final ones as inserted deliveries (counted only when the insert was the
   * first), temporary failures back into the slice with their next attempt; then the slice is
   * written back (deleted once nothing is left) by the holder of the claim only, and the campaign's
   * counters move by what was inserted.
   */
  private async settle(
    campaignId: string,
    id: string,
    claim: string,
    recipients: SliceRecipient[],
    settledBefore: Set<string>,
    outcomes: Outcome[],
    skipped: SliceRecipient[],
  ) {
    const now = new Date();
    const finals: FinalDelivery[] = [];
    const final = (
      recipient: SliceRecipient,
      status: DeliveryStatus,
      attempts: number,
      lastError: string | null,
      lastCode: number | null,
    ) => finals.push(this.finalDelivery(campaignId, recipient, status, attempts, lastError, lastCode));
    const requeued = new Map<string, SliceRecipient>();
    const counted = { sent: 0, failed: 0, skipped: 0 };
    const sentNow: string[] = [];
    for (const outcome of outcomes) {
      const { recipient } = outcome;
      const attempts = recipient.attempts + 1;
      if (outcome.ok) {
        sentNow.push(recipient.email);
        if (outcome.inserted) counted.sent += 1;
      } else if (outcome.kind === 'temporary' && attempts < this.options.maxAttempts) {
        requeued.set(recipient.email, {
          email: recipient.email,
          attempts,
          nextAttemptAt: new Date(now.getTime() + backoffAfter(this.options, attempts)),
          lastError: outcome.message,
          lastCode: outcome.code,
        });
      } else final(recipient, 'failed', attempts, outcome.message, outcome.code);
    }
    for (const recipient of skipped) final(recipient, 'skipped', recipient.attempts, null, null);

    const inserted = await this.insertAll(this.deliveries, finals);
    for (const index of inserted) counted[finals[index].status] += 1;

    // The slice: what is left, written back only while this claim holds it.
    const done = new Set([...sentNow, ...finals.map((f) => f.email), ...settledBefore]);
    const left = recipients.filter((r) => !done.has(r.email)).map((r) => requeued.get(r.email) ?? r);
    let holding: boolean;
    if (left.length === 0) {
      // The slice goes; its recipients document stays until the campaign ends (one deleteMany then,
      // rather than one delete per slice: on FerretDB a delete reads the collection).
      holding = (await this.slices.deleteOne({ _id: id, claim }).exec()).deletedCount === 1;
    } else {
      // Renewing the lease proves the claim is still this one's before the recipients are rewritten.
      holding =
        (await this.slices.updateOne({ _id: id, claim }, { $set: { leaseUntil: new Date(Date.now() + this.options.leaseMs) } }).exec())
          .modifiedCount === 1;
      if (holding) {
        await this.sliceRecipients.updateOne({ _id: id }, { $set: { recipients: left } }).exec();
        const next = Math.min(...left.map((r) => (r.nextAttemptAt ? new Date(r.nextAttemptAt).getTime() : now.getTime())));
        await this.slices
          .updateOne(
            { _id: id, claim },
            {
              $set: { state: 'queued', nextAttemptAt: new Date(next), leaseUntil: null, leaseOwner: null, claim: null },
              $inc: { version: 1 },
            },
          )
          .exec();
      }
    }
    // Waiting for a retry: those who just started to, minus those who stopped (settled now or before).
    const wasRetrying = (email: string) => (recipients.find((r) => r.email === email)?.attempts ?? 0) > 0;
    const retrying = holding
      ? [...requeued.values()].filter((r) => !wasRetrying(r.email)).length - [...done].filter((email) => wasRetrying(email)).length
      : 0;

    const failures = outcomes.filter((outcome) => !outcome.ok);
    let trailing = 0;
    for (let index = outcomes.length - 1; index >= 0 && !outcomes[index].ok; index -= 1) trailing += 1;
    const anySuccess = outcomes.some((outcome) => outcome.ok);
    const after = await this.turns.run(campaignId, () =>
      this.campaigns
        .findOneAndUpdate(
          { _id: campaignId },
          {
            $inc: {
              sent: counted.sent,
              skipped: counted.skipped,
              failed: counted.failed,
              retrying,
              ...(anySuccess ? {} : { consecutiveFailures: failures.length }),
            },
            $set: { waitingUntil: null, ...(anySuccess ? { consecutiveFailures: trailing } : {}) },
          },
          { returnDocument: 'after' },
        )
        .lean<NewsletterCampaign>()
        .exec(),
    );
    if (!after) return;
    if (after.state === 'cancelled') await this.slices.deleteOne({ _id: id }).exec();

    if (!after.rateSample || now.getTime() - new Date(after.rateSample.at).getTime() >= RATE_SAMPLE_MS) {
      const rate = after.rateSample
        ? (after.sent - after.rateSample.sent) / ((now.getTime() - new Date(after.rateSample.at).getTime()) / 1000)
        : null;
      await this.turns.run(campaignId, () =>
        this.campaigns
          .updateOne(
            { _id: campaignId },
            {
              $set: { rateSample: { at: now, sent: after.sent }, ...(rate === null ? {} : { ratePerSecond: Math.round(rate * 10) / 10 }) },
            },
          )
          .exec(),
      );
    }

    if (after.consecutiveFailures >= this.options.autoPauseAfter && after.state === 'sending') {
      const last = failures.at(-1);
      const reason = `Paused automatically after ${after.consecutiveFailures} failed attempts in a row${last && !last.ok ? ` (last error: ${last.message})` : ''}. Check the mail server, then resume.`;
      const paused = await this.turns.run(campaignId, () =>
        this.campaigns
          .updateOne({ _id: campaignId, state: 'sending' }, { $set: { state: 'paused', pausedReason: reason, updatedAt: now } })
          .exec(),
      );
      if (paused.modifiedCount === 1) this.logger.warn(`Campaign ${campaignId}: ${reason}`);
    }
  }

  /**
   * Nothing was due. Either no slice is left and the list is complete: the campaign is sent, with
   * exact counts; or the next retry (or a lease that may expire) is ahead: rest until then, at most a minute.
   */
  private async finishOrRest(campaignId: string): Promise<void> {
    if (await this.restIfOpen(campaignId)) return;
    const campaign = await this.campaigns.findById(campaignId, { snapshotComplete: 1, state: 1 }).lean<NewsletterCampaign>().exec();
    if (!campaign?.snapshotComplete || campaign.state !== 'sending') return;
    // The end takes the campaign's requeue lock: a retry-failed under way (it writes recipients
    // before their slices) is not cut short by the clean-up below, and none starts meanwhile.
    if (!(await this.requeueLock.take(campaignId, this.options.leaseMs))) return;
    try {
      // A retry-failed that ended just before the lock was taken may have added slices.
      if (await this.restIfOpen(campaignId)) return;
      const counts = await this.recount(campaignId);
      const finished = await this.turns.run(campaignId, () =>
        this.campaigns
          .updateOne(
            { _id: campaignId, state: 'sending' },
            { $set: { state: 'sent', finishedAt: new Date(), updatedAt: new Date(), ...counts, retrying: 0, consecutiveFailures: 0 } },
          )
          .exec(),
      );
      if (finished.modifiedCount === 1) {
        await this.sliceRecipients.deleteMany({ campaignId }).exec();
        await this.sliceClaims.deleteMany({ campaignId }).exec();
      }
    } finally {
      await this.requeueLock.release(campaignId);
    }
  }

  /** Slices are left (waiting for a retry, or in a worker's hands): rest until the earliest is due, at most a minute. */
  private async restIfOpen(campaignId: string): Promise<boolean> {
    const open = await this.slices
      .find({ campaignId }, { state: 1, nextAttemptAt: 1, leaseUntil: 1 })
      .lean<Pick<CampaignSlice, 'state' | 'nextAttemptAt' | 'leaseUntil'>[]>()
      .exec();
    if (open.length === 0) return false;
    const now = Date.now();
    const wakeAt = Math.min(
      ...open.map((slice) => new Date((slice.state === 'queued' ? slice.nextAttemptAt : slice.leaseUntil) ?? now).getTime()),
    );
    this.idleUntil.set(campaignId, Math.min(Math.max(wakeAt, now + this.options.pollMs), now + 60_000));
    return true;
  }

  /**
   * Absolute counts of the final deliveries: once per campaign end (or retry), never per page load.
   * (One read of the deliveries on FerretDB; the total stays the snapshot's.)
   */
  async recount(campaignId: string): Promise<{ sent: number; failed: number; skipped: number }> {
    const grouped = await this.deliveries
      .aggregate<{ _id: string; n: number }>([{ $match: { campaignId } }, { $group: { _id: '$status', n: { $sum: 1 } } }])
      .exec();
    const by = Object.fromEntries(grouped.map((group) => [group._id, group.n])) as Record<string, number>;
    return { sent: by.sent ?? 0, failed: by.failed ?? 0, skipped: by.skipped ?? 0 };
  }

  /**
   * A cancelled campaign's open slices go, with every recipients document of the campaign (a slice
   * in flight goes when its holder settles it: it has its recipients in hand).
   */
  async dropSlices(campaignId: string): Promise<void> {
    const now = new Date();
    await this.slices.deleteMany({ campaignId, $or: [{ state: 'queued' }, { state: 'sending', leaseUntil: { $lt: now } }] }).exec();
    await this.sliceRecipients.deleteMany({ campaignId }).exec();
    await this.sliceClaims.deleteMany({ campaignId }).exec();
  }

  /**
   * Retry-failed: every failed recipient of the campaign gets a fresh set of attempts, in new
   * slices. Their recipients are written first, then the failed deliveries are deleted (so that
   * the new outcome can be inserted), then the slices appear; the caller holds the campaign's
   * requeue lease, so two admins cannot requeue the same recipients twice. Answers how many.
   */
  async requeueFailed(campaignId: string): Promise<number> {
    const failed = await this.deliveries
      .find({ campaignId, status: 'failed' }, { _id: 1, email: 1 })
      .sort({ _id: 1 })
      .lean<Pick<CampaignDelivery, '_id' | 'email'>[]>()
      .exec();
    if (failed.length === 0) return 0;
    const now = new Date();
    const tag = randomBytes(6).toString('base64url');
    const size = this.options.batchSize;
    const ids: string[] = [];
    for (let start = 0; start < failed.length; start += size) {
      const id = `${campaignId}:r${tag}:${start / size}`;
      ids.push(id);
      await this.sliceRecipients.collection.insertOne({
        _id: id,
        campaignId,
        recipients: failed.slice(start, start + size).map((delivery) => this.freshRecipient(delivery.email)),
      } as never);
    }
    await this.deliveries.deleteMany({ _id: { $in: failed.map((delivery) => delivery._id) } }).exec();
    await this.insertNew(
      this.slices,
      ids.map((id) => this.newSlice(campaignId, id, -1, now)),
    );
    return failed.length;
  }
}
