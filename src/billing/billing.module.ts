import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditModule } from '../audit/audit.module.js';
import { INBOX_CONNECTION, SIDE_CONNECTION } from '../database/database.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { LicencesModule } from '../licences/licences.module.js';
import { UsersModule } from '../users/users.module.js';
import { BillingAccountData } from './billing.account-data.js';
import { AdminBillingController, BillingController, StripeWebhookController } from './billing.controller.js';
import { BillingMailer } from './billing-mailer.service.js';
import { BillingBatches } from './billing-batches.js';
import { BillingService } from './billing.service.js';
import { EntitlementsService } from './entitlements.service.js';
import {
  BillingCustomer,
  BillingCustomerSchema,
  BillingSetting,
  BillingSettingSchema,
  Order,
  OrderSchema,
  StripeEventPayload,
  StripeEventPayloadSchema,
  StripeEventRecord,
  StripeEventRecordSchema,
  StripePlanPrice,
  StripePlanPriceSchema,
  SubscriptionMirror,
  SubscriptionMirrorSchema,
} from './schemas/billing.schemas.js';
import { createStripeClient, STRIPE_CLIENT } from './stripe-client.js';
import { ReconcileService } from './reconcile.service.js';
import { StripeCatalogueService } from './stripe-catalogue.service.js';
import { StripeEventsService } from './stripe-events.service.js';
import { SubscriptionReadCache } from './subscription-read-cache.js';
import { WebhookService } from './webhook.service.js';

/**
 * Stripe Checkout, the portal, orders, the subscription mirror and the webhook inbox. Entitlements
 * leave through the EntitlementSink (src/billing/entitlement-sink.ts), which the licences module
 * exports: billing knows the token, not the licences' internals.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: BillingCustomer.name, schema: BillingCustomerSchema },
      { name: Order.name, schema: OrderSchema },
      { name: SubscriptionMirror.name, schema: SubscriptionMirrorSchema },
      { name: StripeEventRecord.name, schema: StripeEventRecordSchema },
      { name: StripeEventPayload.name, schema: StripeEventPayloadSchema },
      { name: BillingSetting.name, schema: BillingSettingSchema },
      { name: StripePlanPrice.name, schema: StripePlanPriceSchema },
    ]),
    // The webhook reducer's grouped reads (BillingBatches).
    MongooseModule.forFeature(
      [
        { name: Order.name, schema: OrderSchema },
        { name: SubscriptionMirror.name, schema: SubscriptionMirrorSchema },
      ],
      SIDE_CONNECTION,
    ),
    // The webhook inbox's inserts (WebhookService).
    MongooseModule.forFeature(
      [
        { name: StripeEventRecord.name, schema: StripeEventRecordSchema },
        { name: StripeEventPayload.name, schema: StripeEventPayloadSchema },
      ],
      INBOX_CONNECTION,
    ),
    CatalogueModule,
    UsersModule,
    AuditModule,
    LicencesModule,
  ],
  controllers: [BillingController, AdminBillingController, StripeWebhookController],
  providers: [
    {
      provide: STRIPE_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.stripe ? createStripeClient(config.stripe) : null),
    },
    BillingService,
    EntitlementsService,
    StripeEventsService,
    WebhookService,
    ReconcileService,
    BillingAccountData,
    SubscriptionReadCache,
    StripeCatalogueService,
    BillingMailer,
    BillingBatches,
  ],
  // WebhookService: the admin overview reads the inbox's health.
  exports: [BillingService, WebhookService],
})
export class BillingModule {}
