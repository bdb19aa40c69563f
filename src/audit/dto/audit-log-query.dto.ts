import { IsOptional, IsString, Length } from 'class-validator';
import type { AuditLogQuery } from '../../../lib/api/audit.js';
import { PageQueryDto } from '../../common/page-query.dto.js';

export class AuditLogQueryDto extends PageQueryDto implements AuditLogQuery {
  /** The id of the target (for users, their id). */
  @IsOptional()
  @IsString()
  @Length(1, 100)
  targetId?: string;
}
