import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { OidcStartQuery } from '../../../../lib/api/auth.js';

export class OidcStartQueryDto implements OidcStartQuery {
  /** Where to land after signing in; only same-site relative paths are honoured. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  redirect?: string;
}
