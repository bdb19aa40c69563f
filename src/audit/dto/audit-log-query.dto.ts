import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class AuditLogQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be 1 or more' })
  @Max(100_000, { message: 'page must be 100000 or less' })
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be a whole number' })
  @Min(1, { message: 'pageSize must be between 1 and 100' })
  @Max(100, { message: 'pageSize must be between 1 and 100' })
  pageSize: number = 20;

  /** The id of the target (for users, their id). */
  @IsOptional()
  @IsString()
  @Length(1, 100)
  targetId?: string;
}
