import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength, Validate, ValidateNested, ValidatorConstraint } from 'class-validator';
import type { ValidatorConstraintInterface } from 'class-validator';
import { REDIRECT_STATUSES, type RedirectStatus, type RouteRule, type UpdateRouteRulesRequest } from '../../../lib/api/route-rules.js';
import { isValidRuleSource, isValidRuleTarget } from '../../../lib/routes/route-rules.js';

@ValidatorConstraint({ name: 'ruleSource' })
class RuleSourceConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && isValidRuleSource(value);
  }
  defaultMessage() {
    return 'Source must be a path such as /old-page or a prefix such as /docs/*';
  }
}

@ValidatorConstraint({ name: 'ruleTarget' })
class RuleTargetConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && isValidRuleTarget(value);
  }
  defaultMessage() {
    return 'Target must be a path such as /new-page or an http(s) URL';
  }
}

export class RouteRuleDto implements RouteRule {
  @IsString()
  @MaxLength(500)
  @Validate(RuleSourceConstraint)
  source!: string;

  @IsString()
  @MaxLength(2000)
  @Validate(RuleTargetConstraint)
  target!: string;

  @IsIn(REDIRECT_STATUSES, { message: 'Status must be 301, 302, 307 or 308' })
  status!: RedirectStatus;
}

export class UpdateRouteRulesDto implements UpdateRouteRulesRequest {
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => RouteRuleDto)
  rules!: RouteRuleDto[];
}
