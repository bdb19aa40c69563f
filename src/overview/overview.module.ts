import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { LicencesModule } from '../licences/licences.module.js';
import { NewsletterModule } from '../newsletter/newsletter.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminOverviewService } from './admin-overview.service.js';
import { MrrSnapshotService } from './mrr-snapshot.service.js';
import { AdminOverviewController } from './overview.controller.js';
import { MrrCustomer, MrrCustomerSchema, MrrSnapshot, MrrSnapshotSchema } from './schemas/mrr-snapshot.schema.js';

/**
 * The admin overview's figures. MRR (docs/mrr.md) reads the subscription mirror through
 * BillingService and plan prices through CatalogueService, and keeps its own daily snapshots; the
 * other figures come from the users, billing (orders, webhook inbox), licences and newsletter
 * modules' services.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: MrrSnapshot.name, schema: MrrSnapshotSchema },
      { name: MrrCustomer.name, schema: MrrCustomerSchema },
    ]),
    AnalyticsModule,
    BillingModule,
    CatalogueModule,
    UsersModule,
    LicencesModule,
    NewsletterModule,
  ],
  controllers: [AdminOverviewController],
  providers: [MrrSnapshotService, AdminOverviewService],
  exports: [MrrSnapshotService, AdminOverviewService],
})
export class OverviewModule {}
