import { IsOptional, IsString, Length } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto.js';

export class AuditLogQueryDto extends PageQueryDto {
  /** The id of the target (for users, their id). */
  @IsOptional()
  @IsString()
  @Length(1, 100)
  targetId?: string;
}
