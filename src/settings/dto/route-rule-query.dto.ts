import { IsString, Matches, MaxLength } from 'class-validator';

export class RouteRuleQueryDto {
  @IsString()
  @MaxLength(2048)
  @Matches(/^\//, { message: 'path must start with /' })
  path!: string;
}
