import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SecretsModule } from '../auth/secrets.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminNewsletterController } from './admin-newsletter.controller.js';
import { NewsletterAccountData } from './newsletter.account-data.js';
import { NewsletterController } from './newsletter.controller.js';
import { NewsletterService } from './newsletter.service.js';
import { NewsletterSubscriber, NewsletterSubscriberSchema } from './schemas/newsletter-subscriber.schema.js';

/** The subscriber list (double opt-in, one-click unsubscribe, suppression) and its admin view. */
@Module({
  imports: [
    SecretsModule,
    UsersModule,
    MongooseModule.forFeature([{ name: NewsletterSubscriber.name, schema: NewsletterSubscriberSchema }]),
  ],
  controllers: [NewsletterController, AdminNewsletterController],
  providers: [NewsletterService, NewsletterAccountData],
  exports: [NewsletterService],
})
export class NewsletterModule {}
