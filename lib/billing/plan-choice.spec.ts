import { planChoice, uncoveredProducts } from './plan-choice.js';

const APPS = 'hitscope-for-apps' as const;
const BROWSERS = 'hitscope-for-browsers' as const;
const both = { id: 'team-monthly', interval: 'month' as const, products: [APPS, BROWSERS] };
const appsOnly = { id: 'apps-monthly', interval: 'month' as const, products: [APPS] };
const browsersOnly = { id: 'browsers-monthly', interval: 'month' as const, products: [BROWSERS] };
const lifetime = { id: 'solo-lifetime', interval: 'lifetime' as const, products: [APPS, BROWSERS] };

describe('planChoice', () => {
  it('lets anybody without a subscription buy any plan', () => {
    for (const plan of [both, appsOnly, lifetime]) expect(planChoice(plan, [])).toEqual({ kind: 'buy' });
  });

  it('lets a subscriber buy the other product as a second subscription, never one they already pay for', () => {
    const running = [{ id: 'sub_apps', planId: 'apps-monthly', products: [APPS] }];
    expect(planChoice(browsersOnly, running)).toEqual({ kind: 'buy' });
    expect(planChoice(appsOnly, running)).toEqual({ kind: 'current', subscriptionId: 'sub_apps' });
    // A bundle covers the product they have: switch that subscription (prorated), do not pay twice.
    expect(planChoice(both, running)).toEqual({ kind: 'switch', subscriptionId: 'sub_apps' });
  });

  it('always lets a subscriber buy a one-off plan (a licence of its own)', () => {
    expect(planChoice(lifetime, [{ id: 'sub_1', planId: 'team-monthly', products: [APPS, BROWSERS] }])).toEqual({ kind: 'buy' });
  });

  it('names every subscription a bundle overlaps, and takes a subscription of an unknown plan to cover everything', () => {
    const running = [
      { id: 'sub_apps', planId: 'apps-monthly', products: [APPS] },
      { id: 'sub_browsers', planId: 'browsers-monthly', products: [BROWSERS] },
    ];
    expect(planChoice(both, running)).toEqual({ kind: 'overlap', subscriptionIds: ['sub_apps', 'sub_browsers'] });
    expect(planChoice(browsersOnly, [{ id: 'sub_x', planId: null, products: [] }])).toEqual({ kind: 'switch', subscriptionId: 'sub_x' });
  });

  it('lists the products no running subscription covers', () => {
    expect(uncoveredProducts([APPS, BROWSERS], [])).toEqual([APPS, BROWSERS]);
    expect(uncoveredProducts([APPS, BROWSERS], [{ id: 's', planId: 'a', products: [APPS] }])).toEqual([BROWSERS]);
    expect(uncoveredProducts([APPS, BROWSERS], [{ id: 's', planId: null, products: [] }])).toEqual([]);
  });
});
