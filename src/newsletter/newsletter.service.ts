import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import {
  type AdminSubscriber,
  type AdminSubscriberList,
  CONFIRM_LINK_DAYS,
  NEWSLETTER_CONSENT,
  SUBSCRIBER_STATES,
  type SubscriberState,
  type SubscriptionSource,
} from '../../lib/api/newsletter.js';
import { csvRow } from '../../lib/csv/csv.js';
import { SecretsService } from '../auth/secrets.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MailService } from '../mail/mail.service.js';
import type { ListSubscribersQueryDto } from './dto/list-subscribers-query.dto.js';
import { confirmationMail, listUnsubscribeHeaders } from './newsletter-mails.js';
import { hashIp, newsletterKey, signNewsletterToken, verifyNewsletterToken } from './newsletter-token.js';
import { NewsletterErrorCode, NewsletterException } from './newsletter.exception.js';
import { type ConsentProof, NewsletterSubscriber } from './schemas/newsletter-subscriber.schema.js';
import { DAY_MS, utcDay } from '../../lib/time/utc-day.js';

/** Resend throttle per address: one confirmation mail per 10 minutes, three per UTC day. */
export const CONFIRM_MAIL_INTERVAL_MS = 10 * 60 * 1000;
export const CONFIRM_MAILS_PER_DAY = 3;
const CSV_BATCH = 500;
/** Unconfirmed sign-ups are forgotten after 30 days (the privacy policy says so). */
export const PENDING_RETENTION_MS = 30 * DAY_MS;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface SignUp {
  /** Normalised already (the DTO's EmailAddress rule, or an account's stored address). */
  email: string;
  source: SubscriptionSource;
  ip?: string;
}

type Subscriber = NewsletterSubscriber;

/**
 * The subscriber list: double opt-in, one-click unsubscribe, the suppression list.
 *
 * Written for FerretDB without transactions: one document per address (`_id` = the address), every
 * state change a single conditional `updateOne` on that `_id` (`{_id, state: 'pending'}` →
 * confirmed), so a replay or a race leaves one well-defined state and never a duplicate.
 */
@Injectable()
export class NewsletterService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(NewsletterService.name);
  private cachedKey: Buffer | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @InjectModel(NewsletterSubscriber.name) private readonly subscribers: Model<NewsletterSubscriber>,
    private readonly secrets: SecretsService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      this.sweepPending().catch((error: Error) => this.logger.warn(`Newsletter sweep failed: ${error.message}`));
    }, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /**
   * Unconfirmed sign-ups older than 30 days: a new address is forgotten; an unsubscribed address that
   * asked again and never confirmed goes back to unsubscribed (it stays on the suppression list).
   */
  async sweepPending(now = new Date()): Promise<void> {
    const before = new Date(now.getTime() - PENDING_RETENTION_MS);
    await this.subscribers.deleteMany({ state: 'pending', suppressed: null, 'consent.at': { $lt: before } }).exec();
    await this.subscribers
      .updateMany(
        { state: 'pending', suppressed: { $ne: null }, 'consent.at': { $lt: before } },
        { $set: { state: 'unsubscribed', updatedAt: now } },
      )
      .exec();
  }

  private get key(): Buffer {
    return (this.cachedKey ??= newsletterKey(this.secrets.authSecret));
  }

  private consent(source: SubscriptionSource, ip: string | undefined, at: Date): ConsentProof {
    return { source, at, ipHash: hashIp(this.key, ip), textVersion: NEWSLETTER_CONSENT.version };
  }

  /** The link for the List-Unsubscribe header and the one-click POST (never expires). */
  /** The page with the one "Unsubscribe" button (the visible link in a mail's footer). */
  unsubscribePageUrl(email: string): string {
    const token = signNewsletterToken(this.key, { purpose: 'unsubscribe', email, expiresAt: null });
    return `${this.config.publicUrl}/newsletter/unsubscribe?token=${token}`;
  }

  /** The RFC 8058 one-click URL (the List-Unsubscribe header's). */
  unsubscribeUrl(email: string): string {
    const token = signNewsletterToken(this.key, { purpose: 'unsubscribe', email, expiresAt: null });
    return `${this.config.publicUrl}/api/newsletter/unsubscribe?token=${token}`;
  }

  /**
   * A sign-up. The caller answers the same whatever happens here (SUBSCRIBE_MESSAGE): a confirmed
   * address gets no mail and no change, a pending or unsubscribed one a new confirmation link
   * (throttled), a bounced or complained one nothing at all.
   */
  async subscribe({ email, source, ip }: SignUp, now = new Date()): Promise<void> {
    const day = utcDay(now);
    const fresh: Subscriber = {
      _id: email,
      state: 'pending',
      consent: this.consent(source, ip, now),
      confirmation: null,
      createdAt: now,
      confirmedAt: null,
      unsubscribedAt: null,
      suppressed: null,
      lastConfirmMailAt: now,
      mailDay: day,
      mailDayCount: 1,
      updatedAt: now,
    };
    try {
      await this.subscribers.create(fresh);
      await this.sendConfirmation(email, now);
      return;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const existing = await this.subscribers.findById(email).lean<Subscriber>().exec();
    if (!existing || existing.state === 'confirmed') return;
    if (existing.state === 'bounced' || existing.state === 'complained') {
      this.logger.log('A sign-up for a suppressed (bounced or complained) address was ignored');
      return;
    }
    // pending, or unsubscribed and asking again: the new request is the consent the link answers;
    // the suppression stays until the link is followed.
    await this.subscribers
      .updateOne(
        { _id: email, state: existing.state },
        { $set: { state: 'pending', consent: this.consent(source, ip, now), updatedAt: now } },
      )
      .exec();
    if (await this.takeMailSlot(existing, now)) await this.sendConfirmation(email, now);
    else this.logger.log('A confirmation mail was throttled (resend limit per address)');
  }

  /**
   * Claims the right to send one confirmation mail now. The update only applies if nobody else
   * claimed since `seen` was read (its `lastConfirmMailAt` is part of the filter), so concurrent
   * sign-ups of one address send one mail, without a lock or a transaction.
   */
  private async takeMailSlot(seen: Subscriber, now: Date): Promise<boolean> {
    const last = seen.lastConfirmMailAt;
    if (last && now.getTime() - new Date(last).getTime() < CONFIRM_MAIL_INTERVAL_MS) return false;
    const day = utcDay(now);
    const sentToday = seen.mailDay === day ? seen.mailDayCount : 0;
    if (sentToday >= CONFIRM_MAILS_PER_DAY) return false;
    const claimed = await this.subscribers
      .updateOne(
        { _id: seen._id, lastConfirmMailAt: last ?? null },
        { $set: { lastConfirmMailAt: now, mailDay: day, mailDayCount: sentToday + 1 } },
      )
      .exec();
    return claimed.modifiedCount === 1;
  }

  private async sendConfirmation(email: string, now: Date): Promise<void> {
    const token = signNewsletterToken(this.key, { purpose: 'confirm', email, expiresAt: now.getTime() + CONFIRM_LINK_DAYS * DAY_MS });
    const unsubscribeToken = signNewsletterToken(this.key, { purpose: 'unsubscribe', email, expiresAt: null });
    await this.mail.enqueue(
      confirmationMail(
        email,
        `${this.config.publicUrl}/newsletter/confirm?token=${token}`,
        `${this.config.publicUrl}/newsletter/unsubscribe?token=${unsubscribeToken}`,
        listUnsubscribeHeaders(this.unsubscribeUrl(email), this.config.mailFrom),
      ),
    );
  }

  /**
   * The "Confirm subscription" button. Only a pending address is confirmed (an unsubscribe after the
   * mail was sent wins over an old link); confirming twice is fine.
   */
  async confirm(token: string, ip: string | undefined, now = new Date()): Promise<void> {
    const claims = verifyNewsletterToken(this.key, token, 'confirm', now.getTime());
    if (!claims) throw new NewsletterException(NewsletterErrorCode.InvalidLink, 'This confirmation link is invalid or has expired');
    const result = await this.subscribers
      .updateOne(
        { _id: claims.email, state: 'pending' },
        {
          $set: {
            state: 'confirmed',
            confirmedAt: now,
            confirmation: { at: now, ipHash: hashIp(this.key, ip), via: 'link' },
            unsubscribedAt: null,
            suppressed: null,
            updatedAt: now,
          },
        },
      )
      .exec();
    if (result.modifiedCount === 1) return;
    const current = await this.subscribers.findById(claims.email, { state: 1 }).lean<Pick<Subscriber, 'state'>>().exec();
    if (current?.state !== 'confirmed') {
      throw new NewsletterException(NewsletterErrorCode.InvalidLink, 'This confirmation link is no longer valid');
    }
  }

  /** One-click unsubscribe: idempotent, and it puts the address on the suppression list. */
  async unsubscribeByToken(token: string, now = new Date()): Promise<void> {
    const claims = verifyNewsletterToken(this.key, token, 'unsubscribe', now.getTime());
    if (!claims) throw new NewsletterException(NewsletterErrorCode.InvalidLink, 'This unsubscribe link is invalid');
    await this.unsubscribe(claims.email, now);
  }

  private async unsubscribe(email: string, now: Date): Promise<void> {
    await this.subscribers
      .updateOne(
        { _id: email, state: { $in: ['pending', 'confirmed'] } },
        { $set: { state: 'unsubscribed', unsubscribedAt: now, suppressed: { reason: 'unsubscribed', at: now }, updatedAt: now } },
      )
      .exec();
  }

  /* Accounts (registration, profile) -------------------------------------------------------- */

  async stateOf(email: string): Promise<SubscriberState | null> {
    const found = await this.subscribers.findById(email, { state: 1 }).lean<Pick<Subscriber, 'state'>>().exec();
    return found?.state ?? null;
  }

  /**
   * The profile's opt-in. A signed-in person whose account address is verified has already proved
   * they own the mailbox (the account's link), and ticking the box is the request: that is the
   * double opt-in, so it confirms at once, and it is also the re-confirmation that lifts a
   * suppression. An unverified address goes through the mailed link like any sign-up.
   */
  async setFromAccount(email: string, wanted: boolean, verified: boolean, ip: string | undefined, now = new Date()): Promise<void> {
    if (!wanted) return this.unsubscribe(email, now);
    if (!verified) return this.subscribe({ email, source: 'profile', ip }, now);
    const consent = this.consent('profile', ip, now);
    await this.subscribers
      .updateOne(
        { _id: email },
        {
          $set: {
            state: 'confirmed',
            consent,
            confirmedAt: now,
            confirmation: { at: now, ipHash: consent.ipHash, via: 'profile' },
            unsubscribedAt: null,
            suppressed: null,
            updatedAt: now,
          },
          $setOnInsert: { createdAt: now, lastConfirmMailAt: null, mailDay: null, mailDayCount: 0 },
        },
        { upsert: true },
      )
      .exec();
  }

  /** An address change or an account deletion: the subscriber document goes with the data. */
  async forget(email: string): Promise<void> {
    await this.subscribers.deleteOne({ _id: email }).exec();
  }

  async exportFor(email: string): Promise<Record<string, unknown> | null> {
    const found = await this.subscribers.findById(email).lean<Subscriber>().exec();
    if (!found) return null;
    const { lastConfirmMailAt: _last, mailDay: _day, mailDayCount: _count, _id, ...kept } = found;
    return { email: _id, ...kept };
  }

  /* Campaigns ----------------------------------------------------------------------------- */

  /** The next confirmed (and not suppressed) addresses after `after`, in `_id` order: the campaign snapshot's pages. */
  confirmedAfter(after: string | null, limit: number): Promise<string[]> {
    return this.confirmedPage(after === null ? null : { $gt: after }, limit);
  }

  /**
   * Confirmed, unsuppressed addresses from `first` on (inclusive), in `_id` order: one query answers
   * whether each recipient of the next slices may still get the newsletter (the campaign worker's
   * check before sending; an `_id` lookup per recipient reads the collection each time on FerretDB).
   */
  confirmedFrom(first: string, limit: number): Promise<string[]> {
    return this.confirmedPage({ $gte: first }, limit);
  }

  private async confirmedPage(idBound: { $gt: string } | { $gte: string } | null, limit: number): Promise<string[]> {
    const filter: Record<string, unknown> = { state: 'confirmed', suppressed: null };
    if (idBound) filter._id = idBound;
    const page = await this.subscribers.find(filter, { _id: 1 }).sort({ _id: 1 }).limit(limit).lean<{ _id: string }[]>().exec();
    return page.map((subscriber) => subscriber._id);
  }

  async confirmedCount(): Promise<number> {
    return this.subscribers.countDocuments({ state: 'confirmed', suppressed: null }).exec();
  }

  /**
   * Which of these addresses may still get the newsletter (confirmed, not suppressed): one `_id`
   * lookup each, the cheap kind on FerretDB (an `$in` reads the whole collection there).
   */
  async stillConfirmed(emails: string[]): Promise<Set<string>> {
    const allowed = new Set<string>();
    // One at a time: a burst would queue ahead of page requests on the app's one connection.
    for (const email of emails) {
      const found = await this.subscribers
        .findById(email, { state: 1, suppressed: 1 })
        .lean<Pick<Subscriber, 'state' | 'suppressed'>>()
        .exec();
      if (found?.state === 'confirmed' && !found.suppressed) allowed.add(email);
    }
    return allowed;
  }

  /* Admin --------------------------------------------------------------------------------- */

  private filter(query: Pick<ListSubscribersQueryDto, 'q' | 'state'>): Record<string, unknown> {
    const filter: Record<string, unknown> = {};
    if (query.q) filter._id = { $regex: escapeRegex(query.q.toLowerCase()) };
    if (query.state) filter.state = query.state;
    return filter;
  }

  async list(query: ListSubscribersQueryDto): Promise<AdminSubscriberList> {
    const filter = this.filter(query);
    const [items, total, grouped] = await Promise.all([
      this.subscribers
        .find(filter)
        .sort({ createdAt: -1, _id: 1 })
        .skip((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .lean<Subscriber[]>()
        .exec(),
      this.subscribers.countDocuments(filter).exec(),
      this.counts(),
    ]);
    return { items: items.map(toAdminSubscriber), total, page: query.page, pageSize: query.pageSize, counts: grouped };
  }

  /**
   * Subscribers per state, every state present (the admin page's filters and the overview's card).
   * One count per state rather than a $group: a count by an indexed field is answered from the index
   * (the embedded database's $group reads every subscriber).
   */
  async counts(): Promise<Record<SubscriberState, number>> {
    const counted = await Promise.all(SUBSCRIBER_STATES.map((state) => this.subscribers.countDocuments({ state }).exec()));
    return Object.fromEntries(SUBSCRIBER_STATES.map((state, index) => [state, counted[index]])) as Record<SubscriberState, number>;
  }

  /** The CSV export, in batches (never the whole list in memory), with the list's filters. */
  async *csv(query: Pick<ListSubscribersQueryDto, 'q' | 'state'>): AsyncGenerator<string> {
    yield csvRow(['email', 'state', 'source', 'subscribed_at', 'confirmed_at', 'unsubscribed_at', 'suppressed', 'consent_version']);
    const filter = this.filter(query);
    let after: string | null = null;
    for (;;) {
      const page: Subscriber[] = await this.subscribers
        .find(after === null ? filter : { ...filter, $and: [{ _id: { $gt: after } }] })
        .sort({ _id: 1 })
        .limit(CSV_BATCH)
        .lean<Subscriber[]>()
        .exec();
      for (const subscriber of page) {
        const row = toAdminSubscriber(subscriber);
        yield csvRow([
          row.email,
          row.state,
          row.source,
          row.subscribedAt,
          row.confirmedAt,
          row.unsubscribedAt,
          row.suppressed ? 'yes' : 'no',
          row.consentVersion,
        ]);
      }
      if (page.length < CSV_BATCH) return;
      after = page[page.length - 1]._id;
    }
  }
}

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

export function toAdminSubscriber(subscriber: Subscriber): AdminSubscriber {
  return {
    email: subscriber._id,
    state: subscriber.state,
    source: subscriber.consent.source,
    subscribedAt: iso(subscriber.consent.at)!,
    confirmedAt: iso(subscriber.confirmedAt),
    unsubscribedAt: iso(subscriber.unsubscribedAt),
    suppressed: subscriber.suppressed !== null,
    consentVersion: subscriber.consent.textVersion,
  };
}
