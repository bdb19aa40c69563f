import { Controller, Get, Query } from '@nestjs/common';
import type { AuditLogPage } from '../../lib/api/audit.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { AuditService } from './audit.service.js';
import { AuditLogQueryDto } from './dto/audit-log-query.dto.js';

@Roles('admin')
@Controller('api/admin/audit-log')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  list(@Query() query: AuditLogQueryDto): Promise<AuditLogPage> {
    return this.audit.list(query);
  }
}
