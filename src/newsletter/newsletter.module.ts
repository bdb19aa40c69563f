import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditModule } from '../audit/audit.module.js';
import { SecretsModule } from '../auth/secrets.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MailService } from '../mail/mail.service.js';
import { UsersModule } from '../users/users.module.js';
import { AdminNewsletterController } from './admin-newsletter.controller.js';
import { AdminCampaignsController, AdminNewsletterSettingsController } from './campaigns/admin-campaigns.controller.js';
import { CampaignProgressStream } from './campaigns/campaign-progress.stream.js';
import { CampaignSender } from './campaigns/campaign-sender.js';
import { CampaignLock, CampaignLockSchema, CampaignRequeueLock } from './campaigns/requeue-lock.js';
import { CampaignTurns } from './campaigns/campaign-turns.js';
import { CAMPAIGN_SENDER_OPTIONS, DEFAULT_CAMPAIGN_SENDER_OPTIONS } from './campaigns/campaign-sender.options.js';
import { CAMPAIGN_TRANSPORT, outboxCampaignTransport, smtpCampaignTransport } from './campaigns/campaign-transport.js';
import { CampaignsService } from './campaigns/campaigns.service.js';
import { NewsletterSettingsService } from './campaigns/newsletter-settings.service.js';
import { CampaignDelivery, CampaignDeliverySchema } from './campaigns/schemas/campaign-delivery.schema.js';
import {
  CampaignSlice,
  CampaignSliceSchema,
  SliceClaim,
  SliceClaimSchema,
  SliceRecipients,
  SliceRecipientsSchema,
} from './campaigns/schemas/campaign-slice.schema.js';
import { NewsletterCampaign, NewsletterCampaignSchema } from './campaigns/schemas/campaign.schema.js';
import {
  NewsletterSettingsDocument,
  NewsletterSettingsSchema,
  SendWindow,
  SendWindowSchema,
} from './campaigns/schemas/newsletter-settings.schema.js';
import { SendLimiter } from './campaigns/send-limiter.js';
import { NewsletterAccountData } from './newsletter.account-data.js';
import { NewsletterController } from './newsletter.controller.js';
import { NewsletterService } from './newsletter.service.js';
import { NewsletterSubscriber, NewsletterSubscriberSchema } from './schemas/newsletter-subscriber.schema.js';

/**
 * The subscriber list (double opt-in, one-click unsubscribe, suppression) and its admin view, and
 * campaigns: drafts, a recipient snapshot, leased sending with retries, limits and live progress.
 */
@Module({
  imports: [
    SecretsModule,
    UsersModule,
    AuditModule,
    MongooseModule.forFeature([
      { name: NewsletterSubscriber.name, schema: NewsletterSubscriberSchema },
      { name: NewsletterCampaign.name, schema: NewsletterCampaignSchema },
      { name: CampaignDelivery.name, schema: CampaignDeliverySchema },
      { name: CampaignSlice.name, schema: CampaignSliceSchema },
      { name: SliceRecipients.name, schema: SliceRecipientsSchema },
      { name: SliceClaim.name, schema: SliceClaimSchema },
      { name: CampaignLock.name, schema: CampaignLockSchema },
      { name: NewsletterSettingsDocument.name, schema: NewsletterSettingsSchema },
      { name: SendWindow.name, schema: SendWindowSchema },
    ]),
  ],
  controllers: [NewsletterController, AdminNewsletterController, AdminCampaignsController, AdminNewsletterSettingsController],
  providers: [
    NewsletterService,
    NewsletterAccountData,
    NewsletterSettingsService,
    SendLimiter,
    CampaignRequeueLock,
    CampaignTurns,
    CampaignSender,
    CampaignsService,
    CampaignProgressStream,
    { provide: CAMPAIGN_SENDER_OPTIONS, useValue: DEFAULT_CAMPAIGN_SENDER_OPTIONS },
    {
      provide: CAMPAIGN_TRANSPORT,
      inject: [APP_CONFIG, MailService],
      useFactory: (config: AppConfig, mail: MailService) =>
        config.smtpUrl
          ? smtpCampaignTransport(
              config.smtpUrl,
              DEFAULT_CAMPAIGN_SENDER_OPTIONS.concurrency * DEFAULT_CAMPAIGN_SENDER_OPTIONS.slicesInFlight,
            )
          : outboxCampaignTransport(mail),
    },
  ],
  exports: [NewsletterService],
})
export class NewsletterModule {}
