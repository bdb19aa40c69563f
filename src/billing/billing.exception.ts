import { DomainException } from '../common/domain.exception.js';

export enum BillingErrorCode {
  NotConfigured = 'BILLING_NOT_CONFIGURED',
  SignatureInvalid = 'WEBHOOK_SIGNATURE_INVALID',
  ProviderError = 'BILLING_PROVIDER_ERROR',
  NoSubscription = 'NO_SUBSCRIPTION',
  AlreadySubscribed = 'ALREADY_SUBSCRIBED',
  PlanNotPriced = 'PLAN_NOT_PRICED',
  OrderNotFound = 'ORDER_NOT_FOUND',
  UserNotFound = 'USER_NOT_FOUND',
  NothingToRetry = 'NOTHING_TO_RETRY',
  CheckoutNotFound = 'CHECKOUT_NOT_FOUND',
  PreviewStale = 'PREVIEW_STALE',
}

// 409 for "not configured": the request is fine, the site's configuration does not allow it (a
// 404 would say the route does not exist, a 503 that it is worth retrying soon; neither is true).
const STATUS: Record<BillingErrorCode, number> = {
  [BillingErrorCode.NotConfigured]: 409,
  [BillingErrorCode.SignatureInvalid]: 400,
  [BillingErrorCode.ProviderError]: 502,
  [BillingErrorCode.NoSubscription]: 404,
  [BillingErrorCode.AlreadySubscribed]: 409,
  [BillingErrorCode.PlanNotPriced]: 409,
  [BillingErrorCode.OrderNotFound]: 404,
  [BillingErrorCode.UserNotFound]: 404,
  [BillingErrorCode.NothingToRetry]: 404,
  [BillingErrorCode.CheckoutNotFound]: 404,
  [BillingErrorCode.PreviewStale]: 409,
};

export class BillingException extends DomainException<BillingErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  static notConfigured(): BillingException {
    return new BillingException(BillingErrorCode.NotConfigured, 'Payments are not configured on this site');
  }

  static signatureInvalid(): BillingException {
    return new BillingException(BillingErrorCode.SignatureInvalid, 'The webhook signature is missing, invalid or too old');
  }

  static provider(): BillingException {
    return new BillingException(BillingErrorCode.ProviderError, 'The payment provider could not be reached. Try again in a moment.');
  }
}
