import { Type } from 'class-transformer';
import { IsIn, IsInt, IsMongoId, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  CHECKOUT_SESSION_ID_PATTERN,
  type ChangePlanRequest,
  type CheckoutConfirmRequest,
  type CheckoutRequest,
  type ManualOrderRequest,
  ORDER_ID_PATTERN,
  PORTAL_FLOWS,
  WEBHOOK_EVENT_STATUSES,
  type WebhookEventStatus,
  type PortalFlow,
  type PortalRequest,
  SUBSCRIPTION_ID_PATTERN,
  type SubscriptionTargetRequest,
} from '../../../lib/api/billing.js';
import { PLAN_ID_PATTERN, PLAN_LIMITS } from '../../../lib/api/catalogue.js';

/** Optional but not nullable (`@IsOptional()` would let null through unvalidated). */
const IfPresent = () => ValidateIf((_dto, value) => value !== undefined);
const PLAN_MESSAGE = 'planId must be a plan id';
export const MAX_QUANTITY = 100;

export class CheckoutDto implements CheckoutRequest {
  @IsString()
  @Matches(PLAN_ID_PATTERN, { message: PLAN_MESSAGE })
  planId!: string;

  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity?: number;
}

const SUBSCRIPTION_MESSAGE = 'subscriptionId must be a Stripe subscription id (sub_…)';
/** A confirmed preview is at most this old (seconds): Stripe prorates to it, so a stale one would charge for time already past. */
export const PRORATION_DATE_MAX_AGE_S = 3600;

export class SubscriptionTargetDto implements SubscriptionTargetRequest {
  @IfPresent()
  @IsString()
  @Matches(SUBSCRIPTION_ID_PATTERN, { message: SUBSCRIPTION_MESSAGE })
  subscriptionId?: string;
}

/** The query of the preview (strings on the wire, numbers here). */
export class PlanPreviewQuery implements Omit<ChangePlanRequest, 'prorationDate'> {
  @IsString()
  @Matches(PLAN_ID_PATTERN, { message: PLAN_MESSAGE })
  planId!: string;

  @IfPresent()
  @Type(() => Number)
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity?: number;

  @IfPresent()
  @IsString()
  @Matches(SUBSCRIPTION_ID_PATTERN, { message: SUBSCRIPTION_MESSAGE })
  subscriptionId?: string;
}

export class ChangePlanDto implements ChangePlanRequest {
  @IsString()
  @Matches(PLAN_ID_PATTERN, { message: PLAN_MESSAGE })
  planId!: string;

  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity?: number;

  @IfPresent()
  @IsString()
  @Matches(SUBSCRIPTION_ID_PATTERN, { message: SUBSCRIPTION_MESSAGE })
  subscriptionId?: string;

  @IfPresent()
  @IsInt({ message: "prorationDate must be the preview's proration date (seconds)" })
  @Min(0)
  prorationDate?: number;
}

export class PortalDto implements PortalRequest {
  @IfPresent()
  @IsIn(PORTAL_FLOWS, { message: `flow must be one of: ${PORTAL_FLOWS.join(', ')}` })
  flow?: PortalFlow;

  @IfPresent()
  @IsString()
  @Matches(SUBSCRIPTION_ID_PATTERN, { message: SUBSCRIPTION_MESSAGE })
  subscriptionId?: string;
}

export class CheckoutConfirmDto implements CheckoutConfirmRequest {
  @IsString()
  @Matches(CHECKOUT_SESSION_ID_PATTERN, { message: 'sessionId must be a Stripe Checkout session id (cs_…)' })
  sessionId!: string;
}

export class ManualOrderDto implements ManualOrderRequest {
  @IsMongoId({ message: 'userId must be a 24-character hexadecimal user id' })
  userId!: string;

  @IsString()
  @Matches(PLAN_ID_PATTERN, { message: PLAN_MESSAGE })
  planId!: string;

  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity?: number;

  @IfPresent()
  @IsInt({ message: 'amountMinor must be an integer amount in minor units (cents)' })
  @Min(0)
  @Max(PLAN_LIMITS.amountMinorMax)
  amountMinor?: number;

  @IfPresent()
  @IsString()
  @MaxLength(500)
  note?: string;
}

export class OrderIdParams {
  @Matches(ORDER_ID_PATTERN, { message: 'id must be an order id (ord_…)' })
  id!: string;
}

export class UserIdParams {
  @IsMongoId({ message: 'userId must be a 24-character hexadecimal user id' })
  userId!: string;
}

export class WebhookEventParams {
  @Matches(/^evt_[A-Za-z0-9_]{1,100}$/, { message: 'id must be a Stripe event id (evt_…)' })
  id!: string;
}

export class WebhookEventQuery {
  @IfPresent()
  @IsIn(WEBHOOK_EVENT_STATUSES, { message: `status must be one of: ${WEBHOOK_EVENT_STATUSES.join(', ')}` })
  status?: WebhookEventStatus;
}
