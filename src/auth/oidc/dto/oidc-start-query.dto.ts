import { IsOptional, IsString, MaxLength } from 'class-validator';

export class OidcStartQueryDto {
  /** Where to land after signing in; only same-site relative paths are honoured. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  redirect?: string;
}
