import type { SubscriptionStatus } from '../../lib/api/billing.js';
import { GRACE_DAYS, orderEntitlement, orderExpiry, orderStatus, subscriptionEntitlement } from './billing-state.js';

const facts = (overrides: Partial<Parameters<typeof orderStatus>[0]> = {}) => ({
  amountMinor: 2900,
  paidAt: null,
  failedAt: null,
  expiredAt: null,
  refundedMinor: 0,
  refundedInFull: false,
  ...overrides,
});
const at = new Date('2026-11-24T00:00:00Z');
const plan = { id: 'team-monthly', products: ['hitscope-for-apps' as const], seats: 5, interval: 'month' as const };

describe('orderStatus', () => {
  it.each([
    ['nothing yet', facts(), 'pending'],
    ['expired', facts({ expiredAt: at }), 'abandoned'],
    ['failed', facts({ failedAt: at }), 'failed'],
    ['failed, then paid (a retried delayed payment)', facts({ failedAt: at, paidAt: at }), 'paid'],
    ['expired and paid (events crossed)', facts({ expiredAt: at, paidAt: at }), 'paid'],
    ['paid, part refunded', facts({ paidAt: at, refundedMinor: 900 }), 'partially_refunded'],
    ['paid, refunded to the last cent', facts({ paidAt: at, refundedMinor: 2900 }), 'refunded'],
    [
      'paid, Stripe says refunded in full (tax made the total differ)',
      facts({ paidAt: at, refundedMinor: 100, refundedInFull: true }),
      'refunded',
    ],
  ])('%s → %s', (_label, input, expected) => {
    expect(orderStatus(input)).toBe(expected);
  });
});

describe('subscriptionEntitlement', () => {
  const end = new Date('2026-12-24T00:00:00Z');
  const subscription = (status: SubscriptionStatus) => ({ id: 'sub_1', userId: 'u1', status, quantity: 3, currentPeriodEnd: end });

  it.each<[SubscriptionStatus, string]>([
    ['trialing', 'active'],
    ['active', 'active'],
    ['past_due', 'past_due'],
    ['unpaid', 'suspended'],
    ['paused', 'suspended'],
    ['incomplete', 'suspended'],
    ['incomplete_expired', 'expired'],
    ['canceled', 'expired'],
  ])('%s → %s, seats = plan seats × quantity, until the period end', (status, state) => {
    expect(subscriptionEntitlement(subscription(status), plan, [])).toMatchObject({
      source: { kind: 'subscription', id: 'sub_1' },
      state,
      seats: 15,
      expiresAt: end,
    });
  });

  it(`gives a past_due subscription ${GRACE_DAYS} days of grace after the period end`, () => {
    expect(subscriptionEntitlement(subscription('past_due'), plan, []).graceUntil).toEqual(new Date('2026-12-31T00:00:00Z'));
    expect(subscriptionEntitlement(subscription('active'), plan, []).graceUntil).toBeNull();
  });

  it('lets a payment override the status: open dispute suspends, lost or full refund revokes, won changes nothing', () => {
    const paid = { status: 'paid' as const, dispute: null };
    expect(
      subscriptionEntitlement(subscription('active'), plan, [paid, { status: 'paid', dispute: { status: 'needs_response' } }]).state,
    ).toBe('suspended');
    expect(subscriptionEntitlement(subscription('active'), plan, [{ status: 'paid', dispute: { status: 'won' } }]).state).toBe('active');
    expect(subscriptionEntitlement(subscription('active'), plan, [{ status: 'paid', dispute: { status: 'lost' } }]).state).toBe('revoked');
    expect(subscriptionEntitlement(subscription('active'), plan, [{ status: 'refunded', dispute: null }]).state).toBe('revoked');
    expect(subscriptionEntitlement(subscription('active'), plan, [{ status: 'partially_refunded', dispute: null }]).state).toBe('active');
  });
});

describe('orderEntitlement', () => {
  const order = (overrides: Partial<Parameters<typeof orderEntitlement>[0]> = {}) => ({
    id: 'ord_1',
    userId: 'u1',
    quantity: 1,
    paidAt: at,
    status: 'paid' as const,
    dispute: null,
    ...overrides,
  });
  const lifetime = { ...plan, interval: 'lifetime' as const, seats: 1 };

  it('gives nothing for an order that was never paid', () => {
    expect(orderEntitlement(order({ paidAt: null, status: 'pending' }), lifetime)).toBeNull();
  });

  it('a lifetime order never expires; a yearly one ends a year after payment, then reads expired', () => {
    expect(orderEntitlement(order(), lifetime, at)).toMatchObject({
      state: 'active',
      expiresAt: null,
      source: { kind: 'order', id: 'ord_1' },
    });
    expect(orderExpiry('year', at)).toEqual(new Date('2027-11-24T00:00:00Z'));
    expect(orderExpiry('month', new Date('2026-01-31T00:00:00Z'))).toEqual(new Date('2026-02-28T00:00:00Z'));
    expect(orderExpiry('year', new Date('2028-02-29T00:00:00Z'))).toEqual(new Date('2029-02-28T00:00:00Z'));
    expect(orderEntitlement(order(), { ...plan, interval: 'year' }, new Date('2028-01-01T00:00:00Z'))!.state).toBe('expired');
  });

  it('revokes on a full refund, keeps a partial one, suspends during a dispute', () => {
    expect(orderEntitlement(order({ status: 'refunded' }), lifetime)!.state).toBe('revoked');
    expect(orderEntitlement(order({ status: 'partially_refunded' }), lifetime)!.state).toBe('active');
    expect(orderEntitlement(order({ dispute: { status: 'under_review' } }), lifetime)!.state).toBe('suspended');
  });
});
