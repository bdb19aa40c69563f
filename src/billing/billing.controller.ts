import { Body, Controller, Get, Header, Headers, HttpCode, Param, Post, Query, RawBody } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import type {
  AdminUserBilling,
  BillingStatus,
  CheckoutProgress,
  CheckoutResponse,
  OrderList,
  OrderView,
  PlanChangePreview,
  RedirectResponse,
  StripeCatalogueView,
  SubscriptionChangeResponse,
  SubscriptionResponse,
  WebhookEventList,
} from '../../lib/api/billing.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { Roles, SignedIn } from '../auth/decorators/roles.decorator.js';
import { SkipCsrf } from '../auth/decorators/skip-csrf.decorator.js';
import { FastLane } from '../fast-lane/fast-lane.js';
import { BillingService } from './billing.service.js';
import {
  ChangePlanDto,
  CheckoutConfirmDto,
  CheckoutDto,
  ManualOrderDto,
  OrderIdParams,
  PlanPreviewQuery,
  PortalDto,
  SubscriptionTargetDto,
  UserIdParams,
  WebhookEventParams,
  WebhookEventQuery,
} from './dto/billing.dto.js';
import { StripeCatalogueService } from './stripe-catalogue.service.js';
import { BillingErrorCode, BillingException } from './billing.exception.js';
import { STRIPE_WEBHOOK_LIMIT_BYTES, STRIPE_WEBHOOK_PATH } from '../common/stripe-webhook-route.js';
import { WebhookService } from './webhook.service.js';

@Controller('api/billing')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Public()
  @Get('status')
  status(): BillingStatus {
    return this.billing.status();
  }

  @SignedIn()
  @Post('checkout')
  checkout(@CurrentUser() user: SessionUser, @Body() body: CheckoutDto): Promise<CheckoutResponse> {
    return this.billing.checkout(user, body.planId, body.quantity);
  }

  /** The success page: the session checked with Stripe and the purchase fulfilled, if the webhook has not yet. */
  @SignedIn()
  @Post('checkout/confirm')
  @HttpCode(200)
  @Header('Cache-Control', 'private, no-store')
  confirmCheckout(@CurrentUser() user: SessionUser, @Body() body: CheckoutConfirmDto): Promise<CheckoutProgress> {
    return this.billing.confirmCheckout(user, body.sessionId);
  }

  /** Polled by the success page until the licences are active: the database only. */
  @SignedIn()
  @Get('checkout/progress')
  @Header('Cache-Control', 'private, no-store')
  checkoutProgress(@CurrentUser() user: SessionUser, @Query() query: CheckoutConfirmDto): Promise<CheckoutProgress> {
    return this.billing.checkoutProgress(user.id, query.sessionId);
  }

  @SignedIn()
  @Post('portal')
  @HttpCode(200)
  portal(@CurrentUser() user: SessionUser, @Body() body: PortalDto): Promise<RedirectResponse> {
    return this.billing.portal(user, body.flow, body.subscriptionId);
  }

  @SignedIn()
  @Get('subscription')
  @Header('Cache-Control', 'private, no-store')
  subscription(@CurrentUser() user: SessionUser): Promise<SubscriptionResponse> {
    return this.billing.subscription(user.id);
  }

  @SignedIn()
  @Post('subscription/cancel')
  @HttpCode(202)
  cancel(@CurrentUser() user: SessionUser, @Body() body: SubscriptionTargetDto): Promise<SubscriptionChangeResponse> {
    return this.billing.setCancelAtPeriodEnd(user, true, body.subscriptionId);
  }

  @SignedIn()
  @Post('subscription/resume')
  @HttpCode(202)
  resume(@CurrentUser() user: SessionUser, @Body() body: SubscriptionTargetDto): Promise<SubscriptionChangeResponse> {
    return this.billing.setCancelAtPeriodEnd(user, false, body.subscriptionId);
  }

  /** What a plan change would cost (Stripe's invoice preview with prorations); changes nothing. */
  @SignedIn()
  @Get('subscription/plan-preview')
  @Header('Cache-Control', 'private, no-store')
  previewPlan(@CurrentUser() user: SessionUser, @Query() query: PlanPreviewQuery): Promise<PlanChangePreview> {
    return this.billing.previewPlanChange(user, query);
  }

  @SignedIn()
  @Post('subscription/plan')
  @HttpCode(202)
  changePlan(@CurrentUser() user: SessionUser, @Body() body: ChangePlanDto): Promise<SubscriptionChangeResponse> {
    return this.billing.changePlan(user, body);
  }

  @SignedIn()
  @Get('orders')
  @Header('Cache-Control', 'private, no-store')
  orders(@CurrentUser() user: SessionUser): Promise<OrderList> {
    return this.billing.listOrders(user.id);
  }

  @SignedIn()
  @Get('orders/:id/receipt')
  @Header('Cache-Control', 'private, no-store')
  @Header('Content-Type', 'text/html; charset=utf-8')
  receipt(@CurrentUser() user: SessionUser, @Param() params: OrderIdParams): Promise<string> {
    return this.billing.receipt(user, params.id);
  }
}

@Roles('admin')
@Controller('api/admin/billing')
export class AdminBillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly webhooks: WebhookService,
    private readonly stripeCatalogue: StripeCatalogueService,
  ) {}

  /** How each plan is sold through Stripe (the catalogue's Stripe column). */
  @Get('stripe-catalogue')
  @Header('Cache-Control', 'private, no-store')
  stripeCatalogueView(): Promise<StripeCatalogueView> {
    return this.stripeCatalogue.view();
  }

  @Post('stripe-catalogue/sync')
  @HttpCode(200)
  syncStripeCatalogue(@CurrentUser() actor: SessionUser): Promise<StripeCatalogueView> {
    return this.stripeCatalogue.syncNow(actor);
  }

  @Get('events')
  @Header('Cache-Control', 'private, no-store')
  events(@Query() query: WebhookEventQuery): Promise<WebhookEventList> {
    return this.webhooks.list(query.status ? [query.status] : ['failed', 'dead']);
  }

  @Post('events/:id/retry')
  @HttpCode(202)
  async retryEvent(@CurrentUser() actor: SessionUser, @Param() params: WebhookEventParams): Promise<{ retried: true }> {
    if (!(await this.webhooks.retry(actor, params.id))) {
      throw new BillingException(BillingErrorCode.NothingToRetry, 'No failed or dead event with this id');
    }
    return { retried: true };
  }

  @Get('users/:userId')
  @Header('Cache-Control', 'private, no-store')
  forUser(@Param() params: UserIdParams): Promise<AdminUserBilling> {
    return this.billing.forAdmin(params.userId);
  }

  @Post('orders')
  recordManualOrder(@CurrentUser() actor: SessionUser, @Body() body: ManualOrderDto): Promise<OrderView> {
    return this.billing.recordManualOrder(actor, body);
  }
}

/**
 * Stripe's webhook: public and without CSRF (Stripe signs it), read as raw bytes (the signature is
 * over them; see installRequestHandling). 200 only once the event is stored. Answered in the fast
 * lane (src/fast-lane/fast-lane.ts), before Express's and Nest's per-request work: every event comes
 * once or more, in bursts, and the work around the handler cost more than the handler.
 */
@Controller(STRIPE_WEBHOOK_PATH.slice(1))
export class StripeWebhookController {
  constructor(private readonly webhooks: WebhookService) {}

  @FastLane({ rawBodyLimitBytes: STRIPE_WEBHOOK_LIMIT_BYTES })
  @Public()
  @SkipCsrf()
  @Post()
  @HttpCode(200)
  async receive(@RawBody() rawBody: Buffer | undefined, @Headers('stripe-signature') signature?: string): Promise<{ received: true }> {
    await this.webhooks.receive(this.webhooks.verify(rawBody, signature));
    return { received: true };
  }
}
