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
import { CampaignDelivery } from './schemas/campaign-delivery.schema.js';
import { NewsletterCampaign } from './schemas/campaign.schema.js';
import { SendLimiter } from './send-limiter.js';

/** Stands in for each recipient's own unsubscribe link in the once-rendered message. */
const LINK_PLACEHOLDER = 'https://unsubscribe.invalid/HITSCOPE-RECIPIENT-LINK';
const RATE_SAMPLE_MS = 2000;
const SWEEP_EVERY_MS = 60_000;
const WAIT_WORTH_NOTING_MS = 5000;

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

type Claimed = Pick<CampaignDelivery, '_id' | 'email' | 'attempts'>;
type Candidate = Pick<CampaignDelivery, '_id' | 'email' | 'status' | 'attempts'>;

/** Batches' worth of due deliveries read at once. */
const READ_AHEAD_BATCHES = 10;

type Outcome =
  { delivery: Claimed; ok: true } | { delivery: Claimed; ok: false; kind: 'temporary' | 'permanent'; code: number | null; message: string };

/**
 * The campaign worker, one per app instance: it starts with the app and stops with it.
 *
 * Each step is safe to repeat or to be cut short, because FerretDB has no transactions:
 * - the recipient snapshot copies confirmed subscribers page by page into deliveries whose `_id`
 *   is `<campaign>:<address>` (a repeated page inserts nothing new), under a lease on the campaign
 *   with a cursor, so a crash resumes after the last page written;
 * - deliveries are claimed in batches: candidates are read, then `updateMany` turns those still
 *   due into `sending` with a lease and this claim's `batch` id, and only what carries that id is
 *   sent. A worker that dies leaves a lease that runs out, and the next claim takes it over: the
 *   message goes again, with the same Message-ID (derived from the delivery);
 * - a delivery is settled only by the claim that holds it (`batch` in the filter), and the
 *   campaign's counters move by what was actually settled (`modifiedCount`), with an absolute
 *   recount when the queue is empty.
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
   * hands) are not looked at again before this time: on FerretDB a search for due deliveries reads
   * the collection, and the app's one connection is better spent on page requests meanwhile.
   */
  private idleUntil = new Map<string, number>();
  /**
   * Due deliveries read ahead, per campaign: one read of the collection serves several batches.
   * Only a hint: each is claimed by a conditional update, so one claimed elsewhere meanwhile is skipped.
   */
  private ahead = new Map<string, Candidate[]>();

  constructor(
    @InjectModel(NewsletterCampaign.name) private readonly campaigns: Model<NewsletterCampaign>,
    @InjectModel(CampaignDelivery.name) private readonly deliveries: Model<CampaignDelivery>,
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

  /** Something changed (send, resume, retry): look at every campaign again now. */
  wake(): void {
    this.idleUntil.clear();
    this.ahead.clear();
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
        const result = await this.sendBatch(campaign);
        if (result.count > 0) progressed = true;
        else if (result.waitUntil) {
          waitUntil = Math.min(waitUntil ?? Infinity, result.waitUntil);
          await this.noteWait(campaign, result.waitUntil);
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
    await this.campaigns.updateOne({ _id: campaign._id, state: 'sending' }, { $set: { waitingUntil: new Date(until) } }).exec();
  }

  /* The recipient snapshot ---------------------------------------------------------------- */

  /** Copies the next page of confirmed subscribers. Answers whether it did anything. */
  private async snapshotStep(campaign: NewsletterCampaign): Promise<boolean> {
    const now = new Date();
    const leased = await this.campaigns
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
      .exec();
    if (!leased) return false;
    const emails = await this.newsletter.confirmedAfter(leased.snapshotCursor, this.options.snapshotBatch);
    const inserted = await this.insertNew(
      emails.map((email) => ({
        _id: `${leased._id}:${email}`,
        campaignId: leased._id,
        email,
        status: 'queued',
        attempts: 0,
        nextAttemptAt: now,
        leaseUntil: null,
        leaseOwner: null,
        batch: null,
        lastError: null,
        lastCode: null,
        sentAt: null,
      })),
    );
    const done = emails.length < this.options.snapshotBatch;
    await this.campaigns
      .updateOne(
        { _id: leased._id, snapshotOwner: this.owner },
        {
          $inc: { total: inserted },
          $set: {
            snapshotCursor: emails.at(-1) ?? leased.snapshotCursor,
            snapshotComplete: done,
            snapshotLeaseUntil: done ? null : new Date(Date.now() + this.options.leaseMs),
            snapshotOwner: done ? null : this.owner,
          },
        },
      )
      .exec();
    return emails.length > 0;
  }

  /** Inserts what is not there yet; a duplicate `_id` (copied before a crash) is skipped. Answers how many were new. */
  private async insertNew(documents: Record<string, unknown>[]): Promise<number> {
    if (documents.length === 0) return 0;
    try {
      const result = await this.deliveries.collection.insertMany(documents as never[], { ordered: false });
      return result.insertedCount;
    } catch (error) {
      const bulk = error as { code?: number; insertedCount?: number; writeErrors?: { code?: number }[] | { code?: number } };
      const writeErrors = Array.isArray(bulk.writeErrors) ? bulk.writeErrors : bulk.writeErrors ? [bulk.writeErrors] : [];
      const onlyDuplicates = bulk.code === 11000 || (writeErrors.length > 0 && writeErrors.every((entry) => entry.code === 11000));
      if (!onlyDuplicates) throw error;
      return bulk.insertedCount ?? documents.length - writeErrors.length;
    }
  }

  /* Sending ------------------------------------------------------------------------------- */

  private async sendBatch(campaign: NewsletterCampaign): Promise<{ count: number; waitUntil: number | null }> {
    const settings = await this.settings.get();
    const now = Date.now();
    const slots = await this.limiter.claim(this.options.batchSize, settings, now);
    if (slots.granted === 0) return { count: 0, waitUntil: slots.retryAt };

    const at = new Date(now);
    const candidates = await this.nextCandidates(campaign._id, slots.granted, at);
    if (candidates.length < slots.granted) await this.limiter.release(slots.granted - candidates.length, settings, now);
    if (candidates.length === 0) return { count: 0, waitUntil: null };

    // The claim: only what is still due when the update runs becomes this batch's (another worker
    // may have claimed some since the candidates were read). One `updateMany` per kind: on FerretDB
    // any filter beyond `_id` alone reads the whole collection, so one read per batch, not per delivery.
    const batch = randomBytes(9).toString('base64url');
    const lease = { status: 'sending' as const, leaseUntil: new Date(now + this.options.leaseMs), leaseOwner: this.owner, batch };
    const queuedIds = candidates.filter((c) => c.status === 'queued').map((c) => c._id);
    const expiredIds = candidates.filter((c) => c.status === 'sending').map((c) => c._id);
    let modified = 0;
    if (queuedIds.length) {
      modified += (
        await this.deliveries
          .updateMany({ _id: { $in: queuedIds }, status: 'queued', nextAttemptAt: { $lte: at } }, { $set: lease, $inc: { attempts: 1 } })
          .exec()
      ).modifiedCount;
    }
    if (expiredIds.length) {
      modified += (
        await this.deliveries
          .updateMany({ _id: { $in: expiredIds }, status: 'sending', leaseUntil: { $lt: at } }, { $set: lease, $inc: { attempts: 1 } })
          .exec()
      ).modifiedCount;
    }
    // Usually every candidate was claimed and nothing needs reading back.
    const won =
      modified === candidates.length
        ? candidates.map(() => true)
        : await this.deliveries
            .find({ _id: { $in: candidates.map((c) => c._id) }, batch }, { _id: 1 })
            .lean<{ _id: string }[]>()
            .exec()
            .then((mine) => {
              const ids = new Set(mine.map((m) => m._id));
              return candidates.map((c) => ids.has(c._id));
            });
    const claimed: Claimed[] = candidates.filter((_, index) => won[index]).map((c) => ({ ...c, attempts: c.attempts + 1 }));
    if (claimed.length === 0) return { count: 0, waitUntil: null };
    const wasRetrying = new Set(candidates.filter((c) => c.status === 'queued' && c.attempts > 0).map((c) => c._id));

    // Someone who unsubscribed (or bounced, or complained) since the snapshot gets nothing.
    const allowed = await this.newsletter.stillConfirmed(claimed.map((delivery) => delivery.email));
    const skipped = claimed.filter((delivery) => !allowed.has(delivery.email));
    const toSend = claimed.filter((delivery) => allowed.has(delivery.email));

    const content = this.render(campaign);
    const from = formatSender(settings.senderName, settings.senderAddress);
    const outcomes = await mapLimit(toSend, this.options.concurrency, async (delivery): Promise<Outcome> => {
      const page = this.newsletter.unsubscribePageUrl(delivery.email);
      try {
        await this.transport.send({
          from,
          replyTo: settings.replyTo,
          to: delivery.email,
          subject: content.subject,
          html: content.html.split(LINK_PLACEHOLDER).join(page),
          text: content.text.split(LINK_PLACEHOLDER).join(page),
          messageId: deliveryMessageId(campaign._id, delivery.email, this.host),
          headers: { ...listUnsubscribeHeaders(this.newsletter.unsubscribeUrl(delivery.email), from), Precedence: 'bulk' },
        });
        return { delivery, ok: true };
      } catch (error) {
        return { delivery, ok: false, ...classifyFailure(error) };
      }
    });

    await this.settle(campaign._id, batch, outcomes, skipped, wasRetrying);
    return { count: claimed.length, waitUntil: null };
  }

  private async nextCandidates(campaignId: string, wanted: number, at: Date): Promise<Candidate[]> {
    let queue = this.ahead.get(campaignId) ?? [];
    if (queue.length === 0) {
      queue = await this.deliveries
        .find(
          {
            campaignId,
            $or: [
              { status: 'queued', nextAttemptAt: { $lte: at } },
              { status: 'sending', leaseUntil: { $lt: at } },
            ],
          },
          { _id: 1, email: 1, status: 1, attempts: 1 },
        )
        .limit(wanted * READ_AHEAD_BATCHES)
        .lean<Candidate[]>()
        .exec();
    }
    const taken = queue.slice(0, wanted);
    this.ahead.set(campaignId, queue.slice(wanted));
    return taken;
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

  /** Records each outcome on its delivery (only while this claim holds it), then moves the campaign's counters by what changed. */
  private async settle(campaignId: string, batch: string, outcomes: Outcome[], skipped: Claimed[], wasRetrying: Set<string>) {
    const now = new Date();
    const held = { batch, status: 'sending' as const };
    const release = { leaseUntil: null, leaseOwner: null, batch: null };
    // One `updateMany` per outcome (one read of the collection on FerretDB, not one per delivery).
    const settleEach = async (ids: string[], update: Record<string, unknown>) =>
      ids.length ? (await this.deliveries.updateMany({ _id: { $in: ids }, ...held }, { $set: update }).exec()).modifiedCount : 0;
    const sentIds = outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.delivery._id);
    const sent = await settleEach(sentIds, { status: 'sent', sentAt: now, lastError: null, lastCode: null, ...release });
    const skippedCount = await settleEach(
      skipped.map((delivery) => delivery._id),
      { status: 'skipped', ...release },
    );

    // One by one: each carries its own error and time, and failures are the rare case (FerretDB
    // runs a bulk write as slowly as the same updates sent separately, and holds the connection longer).
    const failures = outcomes.filter((outcome) => !outcome.ok);
    let retried = 0;
    let failed = 0;
    for (const failure of failures) {
      const { delivery } = failure;
      const again = failure.kind === 'temporary' && delivery.attempts < this.options.maxAttempts;
      const update = {
        status: again ? 'queued' : 'failed',
        nextAttemptAt: new Date(now.getTime() + (again ? backoffAfter(this.options, delivery.attempts) : 0)),
        lastError: failure.message,
        lastCode: failure.code,
        ...release,
      };
      const changed = (await this.deliveries.updateOne({ _id: delivery._id, ...held }, { $set: update }).exec()).modifiedCount;
      if (again) retried += changed;
      else failed += changed;
    }
    const leftRetrying =
      outcomes.filter((outcome) => wasRetrying.has(outcome.delivery._id)).length + skipped.filter((d) => wasRetrying.has(d._id)).length;

    let trailing = 0;
    for (let index = outcomes.length - 1; index >= 0 && !outcomes[index].ok; index -= 1) trailing += 1;
    const anySuccess = outcomes.some((outcome) => outcome.ok);
    const after = await this.campaigns
      .findOneAndUpdate(
        { _id: campaignId },
        {
          $inc: {
            sent,
            skipped: skippedCount,
            failed,
            retrying: retried - leftRetrying,
            ...(anySuccess ? {} : { consecutiveFailures: failures.length }),
          },
          $set: { waitingUntil: null, ...(anySuccess ? { consecutiveFailures: trailing } : {}) },
        },
        { returnDocument: 'after' },
      )
      .lean<NewsletterCampaign>()
      .exec();
    if (!after) return;

    if (!after.rateSample || now.getTime() - new Date(after.rateSample.at).getTime() >= RATE_SAMPLE_MS) {
      const rate = after.rateSample
        ? (after.sent - after.rateSample.sent) / ((now.getTime() - new Date(after.rateSample.at).getTime()) / 1000)
        : null;
      await this.campaigns
        .updateOne(
          { _id: campaignId },
          { $set: { rateSample: { at: now, sent: after.sent }, ...(rate === null ? {} : { ratePerSecond: Math.round(rate * 10) / 10 }) } },
        )
        .exec();
    }

    if (after.consecutiveFailures >= this.options.autoPauseAfter && after.state === 'sending') {
      const last = failures.at(-1);
      const reason = `Paused automatically after ${after.consecutiveFailures} failed attempts in a row${last && !last.ok ? ` (last error: ${last.message})` : ''}. Check the mail server, then resume.`;
      const paused = await this.campaigns
        .updateOne({ _id: campaignId, state: 'sending' }, { $set: { state: 'paused', pausedReason: reason, updatedAt: now } })
        .exec();
      if (paused.modifiedCount === 1) this.logger.warn(`Campaign ${campaignId}: ${reason}`);
    }
  }

  /**
   * Nothing was due. Either the queue is empty (nothing queued, nothing in flight) and the list
   * complete: the campaign is sent, with exact counts; or the next retry (or a lease that may
   * expire) is ahead: rest until then, at most a minute.
   */
  private async finishOrRest(campaignId: string): Promise<void> {
    const next = await this.deliveries
      .findOne({ campaignId, status: { $in: ['queued', 'sending'] } }, { status: 1, nextAttemptAt: 1, leaseUntil: 1 })
      .sort({ nextAttemptAt: 1 })
      .lean<Pick<CampaignDelivery, 'status' | 'nextAttemptAt' | 'leaseUntil'>>()
      .exec();
    const now = Date.now();
    if (next) {
      const wakeAt = new Date((next.status === 'queued' ? next.nextAttemptAt : next.leaseUntil) ?? now).getTime();
      this.idleUntil.set(campaignId, Math.min(Math.max(wakeAt, now + this.options.pollMs), now + 60_000));
      return;
    }
    const campaign = await this.campaigns.findById(campaignId, { snapshotComplete: 1, state: 1 }).lean<NewsletterCampaign>().exec();
    if (!campaign?.snapshotComplete || campaign.state !== 'sending') return;
    const counts = await this.recount(campaignId);
    await this.campaigns
      .updateOne(
        { _id: campaignId, state: 'sending' },
        { $set: { state: 'sent', finishedAt: new Date(), updatedAt: new Date(), ...counts, retrying: 0, consecutiveFailures: 0 } },
      )
      .exec();
  }

  /** Absolute counts from the deliveries: once per campaign end (or retry), never per page load. */
  async recount(campaignId: string): Promise<{ total: number; sent: number; failed: number; skipped: number }> {
    const grouped = await this.deliveries
      .aggregate<{ _id: string; n: number }>([{ $match: { campaignId } }, { $group: { _id: '$status', n: { $sum: 1 } } }])
      .exec();
    const by = Object.fromEntries(grouped.map((group) => [group._id, group.n])) as Record<string, number>;
    const total = grouped.reduce((sum, group) => sum + group.n, 0);
    return { total, sent: by.sent ?? 0, failed: by.failed ?? 0, skipped: by.skipped ?? 0 };
  }
}
