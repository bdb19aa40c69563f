import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditAccountData } from './audit.account-data.js';
import { AuditController } from './audit.controller.js';
import { AuditService } from './audit.service.js';
import { AuditEntry, AuditEntrySchema } from './schemas/audit-entry.schema.js';

@Module({
  imports: [MongooseModule.forFeature([{ name: AuditEntry.name, schema: AuditEntrySchema }])],
  controllers: [AuditController],
  providers: [AuditService, AuditAccountData],
  exports: [AuditService],
})
export class AuditModule {}
