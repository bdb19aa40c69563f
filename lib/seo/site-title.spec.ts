import { PRODUCT } from '../product.js';
import { siteTitle } from './site-title.js';

describe('siteTitle', () => {
  it('keeps titles as written while the site has its default name', () => {
    expect(siteTitle(`Sign in — ${PRODUCT.name}`, undefined)).toBe(`Sign in — ${PRODUCT.name}`);
    expect(siteTitle(`Sign in — ${PRODUCT.name}`, PRODUCT.name)).toBe(`Sign in — ${PRODUCT.name}`);
  });

  it('swaps the brand suffix and the brand prefix for the site name', () => {
    expect(siteTitle(`Sign in — ${PRODUCT.name}`, 'Acme Debug')).toBe('Sign in — Acme Debug');
    expect(siteTitle(`${PRODUCT.name} — analytics debugging tools`, 'Acme Debug')).toBe('Acme Debug — analytics debugging tools');
    expect(siteTitle(PRODUCT.name, 'Acme Debug')).toBe('Acme Debug');
    expect(siteTitle(`Settings — ${PRODUCT.name} admin`, 'Acme Debug')).toBe('Settings — Acme Debug admin');
    expect(siteTitle(`Sponsor ${PRODUCT.name}`, 'Acme Debug')).toBe('Sponsor Acme Debug');
  });

  it('leaves the product name where it names a product, not the site', () => {
    expect(siteTitle(`${PRODUCT.name} for Apps — ${PRODUCT.name}`, 'Acme')).toBe(`${PRODUCT.name} for Apps — Acme`);
    expect(siteTitle('Settings', 'Acme')).toBe('Settings');
  });
});
