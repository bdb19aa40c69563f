import { structuredData } from '../seo/head.js';
import { coverageText, pricingCopy, productsText } from './plan-copy.js';

const APPS = 'hitscope-for-apps';
const BROWSERS = 'hitscope-for-browsers';

describe('plan copy from the catalogue', () => {
  it('names the products a plan covers, in catalogue order, and says "both" only when it covers both', () => {
    expect(productsText([BROWSERS, APPS])).toBe('Hitscope for Apps and Hitscope for Browsers');
    expect(productsText([APPS])).toBe('Hitscope for Apps');
    expect(coverageText([APPS, BROWSERS])).toBe('Both companion products');
    expect(coverageText([BROWSERS])).toBe('Hitscope for Browsers only');
  });

  it('heads the pricing "One licence, both companion products" only while every plan on sale covers both', () => {
    const bundle = { products: [APPS, BROWSERS] };
    expect(pricingCopy([bundle, bundle]).heading).toBe('One licence, both companion products');
    expect(pricingCopy([bundle, bundle]).lead).toMatch(
      /^Every plan includes Hitscope for Apps, the desktop app, and Hitscope for Browsers/,
    );
    const mixed = pricingCopy([bundle, { products: [APPS] }]);
    expect(mixed.heading).toBe('Licences for the companion products');
    expect(mixed.lead).not.toMatch(/Every plan includes/);
  });

  it('offers in the JSON-LD exactly the plans on sale that cover each product, at their own price and currency', () => {
    const plan = (
      id: string,
      products: string[],
      amountMinor: number,
      interval: 'month' | 'year' | 'lifetime',
      currency: 'eur' | 'usd' = 'eur',
    ) => ({
      id,
      name: id,
      description: '',
      features: [],
      products: products as never,
      amountMinor,
      currency,
      interval,
      seats: 1,
      trialDays: 0,
      featured: false,
      sortOrder: 0,
    });
    const [, , apps, browsers] = structuredData('home', 'https://hitscope.test', [
      plan('Both', [APPS, BROWSERS], 2900, 'month'),
      plan('Apps', [APPS], 19900, 'lifetime', 'usd'),
    ]) as Array<{ name: string; offers?: unknown[] }>;
    expect(apps.offers).toEqual([
      { '@type': 'Offer', name: 'Both (monthly)', price: '29.00', priceCurrency: 'EUR' },
      { '@type': 'Offer', name: 'Apps', price: '199.00', priceCurrency: 'USD' },
    ]);
    expect(browsers.offers).toEqual([{ '@type': 'Offer', name: 'Both (monthly)', price: '29.00', priceCurrency: 'EUR' }]);
    // Without the catalogue: no offers, rather than prices made up in code.
    expect((structuredData('home', 'https://hitscope.test')[2] as { offers?: unknown }).offers).toBeUndefined();
  });
});
