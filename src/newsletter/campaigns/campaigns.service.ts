import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../../lib/api/auth.js';
import {
  type AdminCampaign,
  type AdminCampaignList,
  type AdminCampaignSummary,
  type CampaignInput,
  type CampaignPreview,
  type CampaignState,
  type NewsletterSettingsAnswer,
  type SendLimits,
  sendEtaSeconds,
} from '../../../lib/api/newsletter-campaigns.js';
import { csvRow } from '../../../lib/csv/csv.js';
import { PRODUCT } from '../../../lib/product.js';
import { AuditService } from '../../audit/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { listUnsubscribeHeaders } from '../newsletter-mails.js';
import { NewsletterErrorCode, NewsletterException, campaignNotFound, campaignStateConflict } from '../newsletter.exception.js';
import { NewsletterService } from '../newsletter.service.js';
import { formatSender, renderCampaign } from './campaign-mail.js';
import { CampaignRequeueLock } from './requeue-lock.js';
import { CampaignTurns } from './campaign-turns.js';
import { CampaignSender } from './campaign-sender.js';
import { CAMPAIGN_TRANSPORT, type CampaignTransport, classifyFailure } from './campaign-transport.js';
import { NewsletterSettingsService } from './newsletter-settings.service.js';
import { CampaignDelivery } from './schemas/campaign-delivery.schema.js';
import { NewsletterCampaign } from './schemas/campaign.schema.js';

const LIST_LIMIT = 100;
const CSV_BATCH = 500;
/** How long a retry-failed may take before another one may start (it normally takes well under a second). */
const REQUEUE_LEASE_MS = 60_000;

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

export function toAdminCampaign(campaign: NewsletterCampaign, limits: SendLimits, now = Date.now()): AdminCampaign {
  const settled = campaign.sent + campaign.failed + campaign.skipped;
  const queued = Math.max(0, campaign.total - settled);
  const open = campaign.state === 'sending' || campaign.state === 'paused';
  return {
    id: campaign._id,
    subject: campaign.subject,
    body: campaign.body,
    state: campaign.state,
    createdAt: iso(campaign.createdAt)!,
    updatedAt: iso(campaign.updatedAt)!,
    startedAt: iso(campaign.startedAt),
    finishedAt: iso(campaign.finishedAt),
    snapshotComplete: campaign.snapshotComplete,
    counts: {
      total: campaign.total,
      queued,
      retrying: Math.max(0, Math.min(queued, campaign.retrying)),
      sent: campaign.sent,
      failed: campaign.failed,
      skipped: campaign.skipped,
    },
    pausedReason: campaign.state === 'paused' ? campaign.pausedReason : null,
    ratePerSecond: campaign.ratePerSecond ?? null,
    etaSeconds: open && campaign.snapshotComplete ? eta(campaign, queued, limits, now) : null,
  };
}

/** At the limits (or the rate seen so far), from the end of a wait for the next hour or day window when there is one. */
function eta(campaign: NewsletterCampaign, queued: number, limits: SendLimits, now: number): number | null {
  const sending = sendEtaSeconds(queued, limits, campaign.ratePerSecond);
  const waiting = campaign.waitingUntil ? Math.max(0, Math.ceil((new Date(campaign.waitingUntil).getTime() - now) / 1000)) : 0;
  return sending === null ? (waiting > 0 ? waiting : null) : sending + waiting;
}

const summary = ({ body: _body, ...rest }: AdminCampaign): AdminCampaignSummary => rest;

/**
 * Campaigns for the admin page: drafts (create, edit, delete, preview, test send) and the life of a
 * send (start, pause, resume, cancel, retry failed, failed-recipient CSV). Each state change is a
 * conditional update on `{_id, state}`, so two admins clicking at once get one transition and a 409.
 * Every change is audited.
 */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectModel(NewsletterCampaign.name) private readonly campaigns: Model<NewsletterCampaign>,
    @InjectModel(CampaignDelivery.name) private readonly deliveries: Model<CampaignDelivery>,
    private readonly newsletter: NewsletterService,
    private readonly settings: NewsletterSettingsService,
    private readonly sender: CampaignSender,
    private readonly requeueLock: CampaignRequeueLock,
    private readonly turns: CampaignTurns,
    private readonly audit: AuditService,
    @Inject(CAMPAIGN_TRANSPORT) private readonly transport: CampaignTransport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(): Promise<AdminCampaignList> {
    const [found, limits, confirmedSubscribers] = await Promise.all([
      this.campaigns.find({}, { body: 0 }).sort({ createdAt: -1 }).limit(LIST_LIMIT).lean<NewsletterCampaign[]>().exec(),
      this.settings.get(),
      this.newsletter.confirmedCount(),
    ]);
    return { items: found.map((campaign) => summary(toAdminCampaign({ ...campaign, body: '' }, limits))), confirmedSubscribers };
  }

  async settingsAnswer(): Promise<NewsletterSettingsAnswer> {
    const [settings, confirmedSubscribers] = await Promise.all([this.settings.get(), this.newsletter.confirmedCount()]);
    return { settings, confirmedSubscribers, etaSeconds: sendEtaSeconds(confirmedSubscribers, settings) };
  }

  private async find(id: string): Promise<NewsletterCampaign> {
    const campaign = await this.campaigns.findById(id).lean<NewsletterCampaign>().exec();
    if (!campaign) throw campaignNotFound();
    return campaign;
  }

  async get(id: string): Promise<AdminCampaign> {
    const [campaign, limits] = await Promise.all([this.find(id), this.settings.get()]);
    return toAdminCampaign(campaign, limits);
  }

  private async record(
    actor: SessionUser,
    action: string,
    campaign: Pick<NewsletterCampaign, '_id' | 'subject'>,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ) {
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: `newsletter.campaign.${action}`,
      target: { type: 'campaign', id: campaign._id, label: campaign.subject },
      before,
      after,
    });
  }

  async create(actor: SessionUser, input: CampaignInput): Promise<AdminCampaign> {
    const now = new Date();
    const created = await this.campaigns.create({
      _id: randomBytes(9).toString('base64url'),
      subject: input.subject,
      body: input.body,
      state: 'draft',
      createdAt: now,
      updatedAt: now,
    });
    const campaign = created.toObject() as NewsletterCampaign;
    await this.record(actor, 'create', campaign, null, { subject: input.subject });
    return toAdminCampaign(campaign, await this.settings.get());
  }

  async update(actor: SessionUser, id: string, input: CampaignInput): Promise<AdminCampaign> {
    const before = await this.find(id);
    const updated = await this.turns.run(id, () =>
      this.campaigns
        .findOneAndUpdate(
          { _id: id, state: 'draft' },
          { $set: { subject: input.subject, body: input.body, updatedAt: new Date() } },
          { returnDocument: 'after' },
        )
        .lean<NewsletterCampaign>()
        .exec(),
    );
    if (!updated) throw campaignStateConflict('Only a draft can be edited: this campaign has been sent or is sending.');
    if (before.subject !== input.subject || before.body !== input.body) {
      await this.record(
        actor,
        'update',
        updated,
        { subject: before.subject, bodyLength: before.body.length },
        { subject: input.subject, bodyLength: input.body.length },
      );
    }
    return toAdminCampaign(updated, await this.settings.get());
  }

  async remove(actor: SessionUser, id: string): Promise<void> {
    const campaign = await this.find(id);
    const deleted = await this.campaigns.deleteOne({ _id: id, state: 'draft' }).exec();
    if (deleted.deletedCount !== 1) throw campaignStateConflict('Only a draft can be deleted: a campaign that was sent stays on record.');
    await this.record(actor, 'delete', campaign, { subject: campaign.subject }, null);
  }

  /** What a recipient would get (for the admin's own address as the sample): the same rendering as the send. */
  preview(input: CampaignInput, sampleEmail: string): CampaignPreview {
    return renderCampaign(
      input,
      { unsubscribePage: this.newsletter.unsubscribePageUrl(sampleEmail) },
      { name: PRODUCT.name, publicUrl: this.config.publicUrl },
    );
  }

  /**
   * One message to one address, now, through the campaign transport: subject marked "[Test]", the
   * same rendering, headers and sender, a Message-ID of its own. Not a delivery: no counter moves.
   */
  async testSend(actor: SessionUser, id: string, to: string | undefined): Promise<{ message: string }> {
    const campaign = await this.find(id);
    const address = to ?? actor.email;
    const settings = await this.settings.get();
    const rendered = this.preview(campaign, address);
    const from = formatSender(settings.senderName, settings.senderAddress);
    try {
      await this.transport.send({
        from,
        replyTo: settings.replyTo,
        to: address,
        subject: `[Test] ${rendered.subject}`,
        html: rendered.html,
        text: rendered.text,
        messageId: `<test.${randomUUID()}@${new URL(this.config.publicUrl).hostname}>`,
        headers: listUnsubscribeHeaders(this.newsletter.unsubscribeUrl(address), from),
      });
    } catch (error) {
      const failure = classifyFailure(error);
      throw new NewsletterException(
        NewsletterErrorCode.TestSendFailed,
        `The mail server did not take the test message: ${failure.message}`,
      );
    }
    await this.record(actor, 'test_send', campaign, null, { to: address });
    return { message: `Test message sent to ${address}` };
  }

  /**
   * Starts sending: the draft becomes `sending` and the workers copy the confirmed subscribers into
   * deliveries, then send. Sending a campaign that is already on its way changes nothing.
   */
  async send(actor: SessionUser, id: string): Promise<AdminCampaign> {
    const campaign = await this.find(id);
    if (campaign.state !== 'draft') {
      if (campaign.state === 'sending' || campaign.state === 'sent') return this.get(id);
      throw campaignStateConflict(`A ${campaign.state} campaign cannot be sent again. Resume it, or copy it into a new draft.`);
    }
    if ((await this.newsletter.confirmedCount()) === 0) {
      throw new NewsletterException(NewsletterErrorCode.NoRecipients, 'There are no confirmed subscribers to send to.');
    }
    const now = new Date();
    const started = await this.turns.run(id, () =>
      this.campaigns
        .updateOne(
          { _id: id, state: 'draft' },
          {
            $set: {
              state: 'sending',
              startedAt: now,
              updatedAt: now,
              snapshotComplete: false,
              snapshotCursor: null,
              rateSample: { at: now, sent: 0 },
            },
          },
        )
        .exec(),
    );
    if (started.modifiedCount === 1) {
      await this.record(actor, 'send', campaign, { state: 'draft' }, { state: 'sending' });
      this.sender.wake();
    }
    return this.get(id);
  }

  private async transition(
    actor: SessionUser,
    id: string,
    from: CampaignState[],
    to: CampaignState,
    action: string,
    extra: Record<string, unknown> = {},
  ) {
    const campaign = await this.find(id);
    const now = new Date();
    const changed = await this.turns.run(id, () =>
      this.campaigns.updateOne({ _id: id, state: { $in: from } }, { $set: { state: to, updatedAt: now, ...extra } }).exec(),
    );
    if (changed.modifiedCount !== 1) {
      throw campaignStateConflict(`This campaign is ${campaign.state}: it cannot be ${to === 'sending' ? 'resumed' : to} now.`);
    }
    await this.record(actor, action, campaign, { state: campaign.state }, { state: to });
    return this.get(id);
  }

  pause(actor: SessionUser, id: string): Promise<AdminCampaign> {
    return this.transition(actor, id, ['sending'], 'paused', 'pause', { pausedReason: null });
  }

  async resume(actor: SessionUser, id: string): Promise<AdminCampaign> {
    const sent = (await this.find(id)).sent;
    const resumed = await this.transition(actor, id, ['paused'], 'sending', 'resume', {
      pausedReason: null,
      consecutiveFailures: 0,
      rateSample: { at: new Date(), sent },
    });
    this.sender.wake();
    return resumed;
  }

  /** Stops for good: nothing more is sent. Messages already in flight finish; the open slices go. */
  async cancel(actor: SessionUser, id: string): Promise<AdminCampaign> {
    const cancelled = await this.transition(actor, id, ['sending', 'paused'], 'cancelled', 'cancel', { finishedAt: new Date() });
    await this.sender.dropSlices(id);
    return cancelled;
  }

  /**
   * Every failed recipient gets a fresh set of attempts; the campaign sends again until they settle.
   * The campaign's requeue lock (CampaignRequeueLock) keeps two admins from requeueing the same
   * recipients twice: the second one gets a 409 while the first is at it.
   */
  async retryFailed(actor: SessionUser, id: string): Promise<{ message: string; campaign: AdminCampaign }> {
    const campaign = await this.find(id);
    if (campaign.state === 'draft' || campaign.state === 'cancelled') {
      throw campaignStateConflict(`A ${campaign.state} campaign has no failed recipients to retry.`);
    }
    const now = new Date();
    if (!(await this.requeueLock.take(id, REQUEUE_LEASE_MS, now))) {
      throw campaignStateConflict('The failed recipients of this campaign are being queued again already.');
    }
    let count = 0;
    try {
      count = await this.sender.requeueFailed(id);
      if (count > 0) {
        const counts = await this.sender.recount(id);
        await this.turns.run(id, () =>
          this.campaigns.updateOne({ _id: id }, { $set: { ...counts, consecutiveFailures: 0, updatedAt: now } }).exec(),
        );
        // Sent (now, or when this began): sending again. A paused campaign stays paused.
        await this.turns.run(id, () =>
          this.campaigns
            .updateOne(
              { _id: id, state: 'sent' },
              { $set: { state: 'sending', finishedAt: null, rateSample: { at: now, sent: counts.sent } } },
            )
            .exec(),
        );
        await this.record(actor, 'retry_failed', campaign, { failed: campaign.failed }, { requeued: count });
        this.sender.wake();
      }
    } finally {
      await this.requeueLock.release(id);
    }
    const message = count === 0 ? 'No failed recipients to retry.' : `${count} failed recipient${count === 1 ? '' : 's'} queued again.`;
    return { message, campaign: await this.get(id) };
  }

  /** Failed recipients with the last error, in batches (never the whole list in memory). */
  async *failedCsv(id: string): AsyncGenerator<string> {
    await this.find(id);
    yield csvRow(['email', 'attempts', 'smtp_code', 'last_error']);
    let after: string | null = null;
    for (;;) {
      const filter: Record<string, unknown> = { campaignId: id, status: 'failed' };
      if (after !== null) filter._id = { $gt: after };
      const page: CampaignDelivery[] = await this.deliveries
        .find(filter)
        .sort({ _id: 1 })
        .limit(CSV_BATCH)
        .lean<CampaignDelivery[]>()
        .exec();
      for (const delivery of page)
        yield csvRow([
          delivery.email,
          String(delivery.attempts),
          delivery.lastCode === null ? '' : String(delivery.lastCode),
          delivery.lastError ?? '',
        ]);
      if (page.length < CSV_BATCH) return;
      after = page[page.length - 1]._id;
    }
  }
}
