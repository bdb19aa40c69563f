import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../../lib/api/auth.js';
import type { NewsletterSettings } from '../../../lib/api/newsletter-campaigns.js';
import { AuditService } from '../../audit/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { mailFromAddress } from '../newsletter-mails.js';
import { NewsletterSettingsDocument } from './schemas/newsletter-settings.schema.js';

const SETTINGS_ID = 'newsletter';

/** The display name of MAIL_FROM (`Name <a@b>`), or the product's name. */
const mailFromName = (mailFrom: string) => /^\s*"?([^"<]*?)"?\s*</.exec(mailFrom)?.[1]?.trim() || 'Hitscope';

/** The newsletter's sender and sending limits: one document, defaults from MAIL_FROM until an admin saves. */
@Injectable()
export class NewsletterSettingsService {
  constructor(
    @InjectModel(NewsletterSettingsDocument.name) private readonly settings: Model<NewsletterSettingsDocument>,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaults(): NewsletterSettings {
    return {
      senderName: mailFromName(this.config.mailFrom),
      senderAddress: mailFromAddress(this.config.mailFrom),
      replyTo: null,
      maxPerSecond: null,
      maxPerHour: null,
      maxPerDay: null,
    };
  }

  async get(): Promise<NewsletterSettings> {
    const stored = await this.settings.findById(SETTINGS_ID).lean<NewsletterSettingsDocument>().exec();
    if (!stored) return this.defaults();
    return {
      senderName: stored.senderName,
      senderAddress: stored.senderAddress,
      replyTo: stored.replyTo ?? null,
      maxPerSecond: stored.maxPerSecond ?? null,
      maxPerHour: stored.maxPerHour ?? null,
      maxPerDay: stored.maxPerDay ?? null,
    };
  }

  async update(actor: SessionUser, input: NewsletterSettings): Promise<NewsletterSettings> {
    const before = await this.get();
    const next: NewsletterSettings = {
      senderName: input.senderName,
      senderAddress: input.senderAddress,
      replyTo: input.replyTo ?? null,
      maxPerSecond: input.maxPerSecond ?? null,
      maxPerHour: input.maxPerHour ?? null,
      maxPerDay: input.maxPerDay ?? null,
    };
    await this.settings.updateOne({ _id: SETTINGS_ID }, { $set: { ...next, updatedAt: new Date() } }, { upsert: true }).exec();
    const changed = (Object.keys(next) as (keyof NewsletterSettings)[]).filter((key) => before[key] !== next[key]);
    if (changed.length > 0) {
      await this.audit.record({
        actor: { id: actor.id, email: actor.email },
        action: 'newsletter.settings.update',
        target: { type: 'newsletter', id: SETTINGS_ID, label: 'Newsletter settings' },
        before: Object.fromEntries(changed.map((key) => [key, before[key]])),
        after: Object.fromEntries(changed.map((key) => [key, next[key]])),
      });
    }
    return next;
  }
}
