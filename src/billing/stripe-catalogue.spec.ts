import { priceMatches, stripeCatalogueEntry, stripeLookupKeyOf, stripeProductIdOf } from './stripe-catalogue.js';

const team = {
  _id: 'team-monthly',
  name: 'Team',
  products: ['hitscope-for-apps', 'hitscope-for-browsers'] as const,
  seats: 5,
  amountMinor: 2900,
  currency: 'eur' as const,
  interval: 'month' as const,
};
const entry = stripeCatalogueEntry(team);
const price = (overrides: Record<string, unknown> = {}) => ({
  id: 'price_1',
  active: true,
  currency: 'eur',
  unit_amount: 2900,
  product: stripeProductIdOf('team-monthly'),
  recurring: { interval: 'month', interval_count: 1 },
  ...overrides,
});

describe('stripeCatalogueEntry', () => {
  it('names a Product of its own per plan and a recurring Price under the plan’s lookup key', () => {
    expect(entry.product).toEqual({
      id: 'hitscope_plan_team-monthly',
      name: 'Hitscope Team',
      description: 'Hitscope for Apps and Hitscope for Browsers, 5 seats',
      metadata: { planId: 'team-monthly', products: 'hitscope-for-apps,hitscope-for-browsers' },
    });
    expect(entry.price).toEqual({
      currency: 'eur',
      unit_amount: 2900,
      recurring: { interval: 'month' },
      lookup_key: stripeLookupKeyOf('team-monthly'),
      nickname: 'Team (monthly)',
      metadata: { planId: 'team-monthly' },
    });
  });

  it('sells a lifetime plan with a one-time Price, and says when a plan covers one product only', () => {
    const lifetime = stripeCatalogueEntry({
      ...team,
      _id: 'apps-lifetime',
      interval: 'lifetime',
      products: ['hitscope-for-apps'],
      seats: 1,
    });
    expect(lifetime.price).not.toHaveProperty('recurring');
    expect(lifetime.price.nickname).toBe('Team (one-off)');
    expect(lifetime.product.description).toBe('Hitscope for Apps, 1 seat');
  });

  it('needs a new Price exactly when the amount, currency or interval changes, and a Product update when its words do', () => {
    expect(stripeCatalogueEntry({ ...team }).priceHash).toBe(entry.priceHash);
    for (const change of [{ amountMinor: 3900 }, { currency: 'usd' as const }, { interval: 'year' as const }]) {
      expect(stripeCatalogueEntry({ ...team, ...change }).priceHash).not.toBe(entry.priceHash);
    }
    // Seats and products are not part of a Price (seats are quantity × plan seats): same Price, updated Product.
    const renamed = stripeCatalogueEntry({ ...team, name: 'Team plus', seats: 6 });
    expect(renamed.priceHash).toBe(entry.priceHash);
    expect(renamed.productHash).not.toBe(entry.productHash);
  });
});

describe('priceMatches', () => {
  it('takes a Price found by lookup key only when it sells the plan as it is now', () => {
    expect(priceMatches(price(), entry)).toBe(true);
    expect(priceMatches(price({ product: { id: stripeProductIdOf('team-monthly') } }), entry)).toBe(true);
    for (const mismatch of [
      { unit_amount: 2000 },
      { currency: 'usd' },
      { active: false },
      { product: 'prod_other' },
      { recurring: { interval: 'year', interval_count: 1 } },
      { recurring: { interval: 'month', interval_count: 3 } },
      { recurring: null },
    ]) {
      expect({ mismatch, matches: priceMatches(price(mismatch), entry) }).toEqual({ mismatch, matches: false });
    }
    const oneOff = stripeCatalogueEntry({ ...team, interval: 'lifetime' });
    expect(priceMatches(price({ recurring: null }), oneOff)).toBe(true);
    expect(priceMatches(price(), oneOff)).toBe(false);
  });
});
