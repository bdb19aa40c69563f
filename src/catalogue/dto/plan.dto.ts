import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import {
  type CreatePlanRequest,
  CURRENCIES,
  type Currency,
  PLAN_ID_PATTERN,
  PLAN_INTERVALS,
  PLAN_LIMITS,
  type PlanInterval,
  type UpdatePlanRequest,
} from '../../../lib/api/catalogue.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../lib/product.js';

/**
 * Optional, but not nullable: `@IsOptional()` also lets `null` through unvalidated, which would
 * then be stored. Absent skips the rules; `null` (or anything else) meets them and is refused.
 */
const IfPresent = () => ValidateIf((_dto, value) => value !== undefined);

const PRICE_ID = /^price_[A-Za-z0-9]{1,100}$/;

export class PlanIdParams {
  @Matches(PLAN_ID_PATTERN, { message: 'id must be a plan id: 3 to 40 lower-case letters, digits and single dashes' })
  id!: string;
}

export class UpdatePlanDto implements UpdatePlanRequest {
  @IfPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(PLAN_LIMITS.nameMax)
  name?: string;

  @IfPresent()
  @IsString()
  @MaxLength(PLAN_LIMITS.descriptionMax)
  description?: string;

  @IfPresent()
  @ArrayMaxSize(PLAN_LIMITS.featuresMax)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(PLAN_LIMITS.featureMax, { each: true })
  features?: string[];

  @IfPresent()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(PRODUCT_SLUGS, { each: true, message: `products must be among: ${PRODUCT_SLUGS.join(', ')}` })
  products?: ProductSlug[];

  @IfPresent()
  @IsInt({ message: 'amountMinor must be an integer amount in minor units (cents)' })
  @Min(0)
  @Max(PLAN_LIMITS.amountMinorMax)
  amountMinor?: number;

  @IfPresent()
  @IsIn(CURRENCIES, { message: `currency must be one of: ${CURRENCIES.join(', ')}` })
  currency?: Currency;

  @IfPresent()
  @IsIn(PLAN_INTERVALS, { message: `interval must be one of: ${PLAN_INTERVALS.join(', ')}` })
  interval?: PlanInterval;

  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(PLAN_LIMITS.seatsMax)
  seats?: number;

  @IfPresent()
  @IsInt()
  @Min(0)
  @Max(PLAN_LIMITS.trialDaysMax)
  trialDays?: number;

  // null clears it (Checkout then prices the plan inline from amountMinor and currency).
  @ValidateIf((_dto, value) => value !== undefined && value !== null)
  @Matches(PRICE_ID, { message: 'stripePriceId must be a Stripe price id (price_…) or null' })
  stripePriceId?: string | null;

  @IfPresent()
  @IsBoolean()
  featured?: boolean;

  @IfPresent()
  @IsInt()
  @Min(0)
  @Max(10_000)
  sortOrder?: number;

  @IfPresent()
  @IsBoolean()
  active?: boolean;
}

export class CreatePlanDto implements CreatePlanRequest {
  @IsString()
  @Matches(PLAN_ID_PATTERN, { message: 'id must be a plan id: 3 to 40 lower-case letters, digits and single dashes' })
  id!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(PLAN_LIMITS.nameMax)
  name!: string;

  @IfPresent()
  @IsString()
  @MaxLength(PLAN_LIMITS.descriptionMax)
  description?: string;

  @IfPresent()
  @ArrayMaxSize(PLAN_LIMITS.featuresMax)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(PLAN_LIMITS.featureMax, { each: true })
  features?: string[];

  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(PRODUCT_SLUGS, { each: true, message: `products must be among: ${PRODUCT_SLUGS.join(', ')}` })
  products!: ProductSlug[];

  @IsInt({ message: 'amountMinor must be an integer amount in minor units (cents)' })
  @Min(0)
  @Max(PLAN_LIMITS.amountMinorMax)
  amountMinor!: number;

  @IsIn(CURRENCIES, { message: `currency must be one of: ${CURRENCIES.join(', ')}` })
  currency!: Currency;

  @IsIn(PLAN_INTERVALS, { message: `interval must be one of: ${PLAN_INTERVALS.join(', ')}` })
  interval!: PlanInterval;

  @IsInt()
  @Min(1)
  @Max(PLAN_LIMITS.seatsMax)
  seats!: number;

  @IfPresent()
  @IsInt()
  @Min(0)
  @Max(PLAN_LIMITS.trialDaysMax)
  trialDays?: number;

  @ValidateIf((_dto, value) => value !== undefined && value !== null)
  @Matches(PRICE_ID, { message: 'stripePriceId must be a Stripe price id (price_…) or null' })
  stripePriceId?: string | null;

  @IfPresent()
  @IsBoolean()
  featured?: boolean;

  @IfPresent()
  @IsInt()
  @Min(0)
  @Max(10_000)
  sortOrder?: number;
}
