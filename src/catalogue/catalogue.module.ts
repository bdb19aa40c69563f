import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditModule } from '../audit/audit.module.js';
import { AdminCatalogueController, AdminProductsController, CatalogueController } from './catalogue.controller.js';
import { CatalogueService } from './catalogue.service.js';
import { CatalogueSettings, CatalogueSettingsSchema, Plan, PlanSchema } from './schemas/plan.schema.js';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Plan.name, schema: PlanSchema },
      { name: CatalogueSettings.name, schema: CatalogueSettingsSchema },
    ]),
    AuditModule,
  ],
  controllers: [CatalogueController, AdminCatalogueController, AdminProductsController],
  providers: [CatalogueService],
  exports: [CatalogueService],
})
export class CatalogueModule {}
