import { IsString, Matches, MaxLength } from 'class-validator';
import type { RouteRuleCheckQuery } from '../../../lib/api/route-rules.js';

export class RouteRuleQueryDto implements RouteRuleCheckQuery {
  @IsString()
  @MaxLength(2048)
  @Matches(/^\//, { message: 'path must start with /' })
  path!: string;
}
