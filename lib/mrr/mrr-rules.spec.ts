import {
  classifyMovements,
  computeMrr,
  customersStarting,
  divideHalfEven,
  type MrrContribution,
  type MrrSubscriptionInput,
  netMovement,
  noMovements,
  valueSubscription,
} from './mrr-rules.js';

const AS_OF = new Date('2026-11-24T12:00:00Z');

function subscription(overrides: Partial<MrrSubscriptionInput> = {}): MrrSubscriptionInput {
  return {
    id: 'sub_1',
    customerId: 'cus_1',
    status: 'active',
    quantity: 1,
    price: { amountMinor: 900, currency: 'eur', interval: 'month' },
    cancelAtPeriodEnd: false,
    cancelAt: null,
    currentPeriodEnd: new Date('2026-12-10T00:00:00Z'),
    discount: null,
    ...overrides,
  };
}

const mrrOf = (overrides: Partial<MrrSubscriptionInput>) => valueSubscription(subscription(overrides), AS_OF);

describe('MRR of one subscription', () => {
  it('takes a monthly price as it is, times the quantity (seats bought as units)', () => {
    expect(mrrOf({})).toEqual({ counted: true, currency: 'eur', mrrMinor: 900 });
    expect(mrrOf({ quantity: 3 })).toEqual({ counted: true, currency: 'eur', mrrMinor: 2700 });
  });

  it('divides a yearly price by 12, rounding once per subscription, half to even, in minor units', () => {
    expect(mrrOf({ price: { amountMinor: 9000, currency: 'eur', interval: 'year' } })).toMatchObject({ mrrMinor: 750 });
    // 29000 / 12 = 2416.67 → 2417
    expect(mrrOf({ price: { amountMinor: 29000, currency: 'eur', interval: 'year' } })).toMatchObject({ mrrMinor: 2417 });
    // 9006 / 12 = 750.5 → 750 (even); 9018 / 12 = 751.5 → 752 (even)
    expect(mrrOf({ price: { amountMinor: 9006, currency: 'eur', interval: 'year' } })).toMatchObject({ mrrMinor: 750 });
    expect(mrrOf({ price: { amountMinor: 9018, currency: 'eur', interval: 'year' } })).toMatchObject({ mrrMinor: 752 });
    // 3 × 9001 = 27003 / 12 = 2250.25 → 2250: the quantity is applied before the one rounding
    expect(mrrOf({ quantity: 3, price: { amountMinor: 9001, currency: 'eur', interval: 'year' } })).toMatchObject({ mrrMinor: 2250 });
  });

  it('normalises interval counts, weeks (× 52/12) and days (× 365/12)', () => {
    expect(mrrOf({ price: { amountMinor: 2700, currency: 'usd', interval: 'month', intervalCount: 3 } })).toMatchObject({ mrrMinor: 900 });
    expect(mrrOf({ price: { amountMinor: 24000, currency: 'usd', interval: 'year', intervalCount: 2 } })).toMatchObject({ mrrMinor: 1000 });
    // 300 × 52 / 12 = 1300
    expect(mrrOf({ price: { amountMinor: 300, currency: 'usd', interval: 'week' } })).toMatchObject({ mrrMinor: 1300 });
    // 10 × 365 / 12 = 304.17 → 304
    expect(mrrOf({ price: { amountMinor: 10, currency: 'usd', interval: 'day' } })).toMatchObject({ mrrMinor: 304 });
  });

  it('subtracts recurring percentage and amount discounts, never below zero', () => {
    const team = { amountMinor: 2900, currency: 'eur', interval: 'month' as const };
    expect(mrrOf({ price: team, discount: { percentOff: 20, duration: 'forever' } })).toMatchObject({ mrrMinor: 2320 });
    // 29000 × 0.8 / 12 = 1933.33 → 1933
    expect(
      mrrOf({ price: { ...team, amountMinor: 29000, interval: 'year' }, discount: { percentOff: 20, duration: 'forever' } }),
    ).toMatchObject({ mrrMinor: 1933 });
    // 12.5% of 900 = 112.5: 787.5 → 788 (even)
    expect(mrrOf({ discount: { percentOff: 12.5, duration: 'forever' } })).toMatchObject({ mrrMinor: 788 });
    // €5 off each yearly invoice is €5/12 a month: (9000 − 500) / 12 = 708.33 → 708
    expect(
      mrrOf({
        price: { amountMinor: 9000, currency: 'eur', interval: 'year' },
        discount: { amountOffMinor: 500, currency: 'eur', duration: 'forever' },
      }),
    ).toMatchObject({ mrrMinor: 708 });
    expect(mrrOf({ discount: { amountOffMinor: 5000, currency: 'eur', duration: 'forever' } })).toMatchObject({ mrrMinor: 0 });
    expect(mrrOf({ discount: { percentOff: 100, duration: 'forever' } })).toMatchObject({ counted: true, mrrMinor: 0 });
  });

  it('ignores one-off coupons, repeating coupons past their end and amounts in another currency', () => {
    expect(mrrOf({ discount: { percentOff: 50, duration: 'once' } })).toMatchObject({ mrrMinor: 900 });
    expect(mrrOf({ discount: { percentOff: 50, duration: 'repeating', end: new Date('2026-11-01T00:00:00Z') } })).toMatchObject({
      mrrMinor: 900,
    });
    expect(mrrOf({ discount: { percentOff: 50, duration: 'repeating', end: new Date('2027-01-01T00:00:00Z') } })).toMatchObject({
      mrrMinor: 450,
    });
    expect(mrrOf({ discount: { amountOffMinor: 100, currency: 'usd', duration: 'forever' } })).toMatchObject({ mrrMinor: 900 });
  });

  it('counts active and past_due; excludes trialing, incomplete, unpaid, paused and canceled', () => {
    expect(mrrOf({ status: 'past_due' })).toMatchObject({ counted: true, mrrMinor: 900 });
    for (const status of ['trialing', 'incomplete', 'incomplete_expired', 'unpaid', 'paused', 'canceled'] as const) {
      expect(mrrOf({ status })).toEqual({ counted: false, reason: 'status', currency: 'eur' });
    }
  });

  it('counts a subscription cancelled at period end until that end, and not after', () => {
    expect(mrrOf({ cancelAtPeriodEnd: true })).toMatchObject({ counted: true, mrrMinor: 900 });
    expect(mrrOf({ cancelAtPeriodEnd: true, currentPeriodEnd: new Date('2026-11-24T11:59:59Z') })).toMatchObject({
      counted: false,
      reason: 'ended',
    });
    expect(mrrOf({ cancelAt: new Date('2026-11-20T00:00:00Z') })).toMatchObject({ counted: false, reason: 'ended' });
  });

  it('gives a lifetime plan no MRR (it is revenue) and an unknown plan no value', () => {
    expect(mrrOf({ price: { amountMinor: 19900, currency: 'eur', interval: 'lifetime' } })).toMatchObject({
      counted: false,
      reason: 'one-off',
    });
    expect(mrrOf({ price: null })).toEqual({ counted: false, reason: 'unpriced', currency: null });
  });

  it('rounds half to even exactly', () => {
    expect(divideHalfEven(5n, 2n)).toBe(2n);
    expect(divideHalfEven(7n, 2n)).toBe(4n);
    expect(divideHalfEven(10n, 3n)).toBe(3n);
    expect(divideHalfEven(11n, 3n)).toBe(4n);
    expect(divideHalfEven(0n, 7n)).toBe(0n);
  });
});

describe('MRR of a day', () => {
  it('keeps currencies apart and totals each to the cent', () => {
    const day = computeMrr(
      [
        subscription({ id: 'sub_a', customerId: 'cus_a' }),
        subscription({ id: 'sub_b', customerId: 'cus_b', price: { amountMinor: 9000, currency: 'eur', interval: 'year' } }),
        subscription({ id: 'sub_c', customerId: 'cus_c', price: { amountMinor: 1200, currency: 'usd', interval: 'month' }, quantity: 3 }),
        subscription({ id: 'sub_d', customerId: 'cus_d', status: 'trialing' }),
        subscription({
          id: 'sub_e',
          customerId: 'cus_e',
          status: 'past_due',
          price: { amountMinor: 1000, currency: 'usd', interval: 'month' },
        }),
        subscription({ id: 'sub_f', customerId: 'cus_f', price: null }),
      ],
      AS_OF,
    );
    expect(day.totals).toEqual([
      { currency: 'eur', mrrMinor: 1650, subscriptions: 2 },
      { currency: 'usd', mrrMinor: 4600, subscriptions: 2 },
    ]);
    expect(day.contributions.map((entry) => entry.id)).toEqual(['sub_a', 'sub_b', 'sub_c', 'sub_e']);
    expect(day.counts).toEqual({ counted: 4, trialing: 1, pastDue: 1, excluded: 1, unpriced: 1 });
  });
});

describe('movements between two snapshots', () => {
  const c = (customerId: string, mrrMinor: number, currency = 'eur', id = `sub_${customerId}`): MrrContribution => ({
    id,
    customerId,
    currency,
    mrrMinor,
  });

  it('classifies new, reactivation, expansion, contraction and churn per currency, adding up to the change', () => {
    const before = [c('grow', 900), c('shrink', 2900), c('leave', 750), c('same', 900), c('us', 1000, 'usd')];
    const after = [c('grow', 2700), c('shrink', 2320), c('same', 900), c('fresh', 900), c('back', 750), c('us', 1500, 'usd')];
    const history = new Set(['back']);
    expect(customersStarting(before, after)).toEqual(['back', 'fresh']);
    const movements = classifyMovements(before, after, (customer) => history.has(customer));
    expect(movements.get('eur')).toEqual({ new: 900, expansion: 1800, contraction: 580, churn: 750, reactivation: 750 });
    expect(movements.get('usd')).toEqual({ ...noMovements(), expansion: 500 });
    const total = (list: MrrContribution[], currency: string) =>
      list.filter((entry) => entry.currency === currency).reduce((sum, entry) => sum + entry.mrrMinor, 0);
    expect(netMovement(movements.get('eur')!)).toBe(total(after, 'eur') - total(before, 'eur'));
  });

  it('counts a customer whose subscription was replaced by another as expansion or contraction, not churn and new', () => {
    const movements = classifyMovements([c('x', 900, 'eur', 'sub_old')], [c('x', 2900, 'eur', 'sub_new')], () => true);
    expect(movements.get('eur')).toEqual({ ...noMovements(), expansion: 2000 });
  });

  it('reports nothing for two equal snapshots', () => {
    expect(classifyMovements([c('a', 900)], [c('a', 900)], () => false).size).toBe(0);
  });
});
