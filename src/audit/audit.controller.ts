import { Controller, Get, Query } from '@nestjs/common';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { AuditService } from './audit.service.js';
import type { AuditLogPageResponse } from './dto/audit-entry.response.js';
import { AuditLogQueryDto } from './dto/audit-log-query.dto.js';

@Roles('admin')
@Controller('api/admin/audit-log')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  list(@Query() query: AuditLogQueryDto): Promise<AuditLogPageResponse> {
    return this.audit.list(query);
  }
}
