import type { Ga4mpEvent, Ga4mpItem } from './types.js';

/**
 * GA4's recommended events (support.google.com/analytics/answer/9267735 and the gtag/MP event
 * reference), each with its documented parameters filled with example values. Every template
 * validates cleanly; `engagement_time_msec` and `session_id` are what the Measurement Protocol guide
 * adds so events show in Realtime.
 */
export interface Ga4mpTemplate {
  name: string;
  label: string;
  description: string;
  build(): Ga4mpEvent;
}

const item = (overrides: Partial<Ga4mpItem> = {}): Ga4mpItem => ({
  item_id: 'SKU_12345',
  item_name: 'Stan and Friends Tee',
  affiliation: 'Google Merchandise Store',
  item_brand: 'Google',
  item_category: 'Apparel',
  item_variant: 'green',
  price: 10.01,
  quantity: 3,
  ...overrides,
});

const session = { session_id: '1700000000', engagement_time_msec: 100 };

export const GA4MP_TEMPLATES: readonly Ga4mpTemplate[] = [
  {
    name: 'page_view',
    label: 'page_view',
    description: 'A page was viewed (page_location, page_title, page_referrer).',
    build: () => ({
      name: 'page_view',
      params: {
        page_location: 'https://www.example.com/products/tee',
        page_title: 'Stan and Friends Tee',
        page_referrer: 'https://www.example.com/',
        ...session,
      },
    }),
  },
  {
    name: 'login',
    label: 'login',
    description: 'A user signed in (method).',
    build: () => ({ name: 'login', params: { method: 'Google', ...session } }),
  },
  {
    name: 'sign_up',
    label: 'sign_up',
    description: 'A user created an account (method).',
    build: () => ({ name: 'sign_up', params: { method: 'Google', ...session } }),
  },
  {
    name: 'search',
    label: 'search',
    description: 'A user searched the site (search_term).',
    build: () => ({ name: 'search', params: { search_term: 't-shirts', ...session } }),
  },
  {
    name: 'select_content',
    label: 'select_content',
    description: 'A user selected content (content_type, content_id).',
    build: () => ({ name: 'select_content', params: { content_type: 'product', content_id: 'C_12345', ...session } }),
  },
  {
    name: 'view_item',
    label: 'view_item',
    description: 'An item was viewed (currency, value, items).',
    build: () => ({ name: 'view_item', params: { currency: 'USD', value: 30.03, items: [item()], ...session } }),
  },
  {
    name: 'add_to_cart',
    label: 'add_to_cart',
    description: 'An item was added to the cart (currency, value, items).',
    build: () => ({ name: 'add_to_cart', params: { currency: 'USD', value: 30.03, items: [item()], ...session } }),
  },
  {
    name: 'begin_checkout',
    label: 'begin_checkout',
    description: 'The checkout started (currency, value, coupon, items).',
    build: () => ({ name: 'begin_checkout', params: { currency: 'USD', value: 30.03, coupon: 'SUMMER_FUN', items: [item()], ...session } }),
  },
  {
    name: 'add_payment_info',
    label: 'add_payment_info',
    description: 'Payment details were submitted (currency, value, coupon, payment_type, items).',
    build: () => ({
      name: 'add_payment_info',
      params: { currency: 'USD', value: 30.03, coupon: 'SUMMER_FUN', payment_type: 'Credit Card', items: [item()], ...session },
    }),
  },
  {
    name: 'add_shipping_info',
    label: 'add_shipping_info',
    description: 'Shipping details were submitted (currency, value, coupon, shipping_tier, items).',
    build: () => ({
      name: 'add_shipping_info',
      params: { currency: 'USD', value: 30.03, coupon: 'SUMMER_FUN', shipping_tier: 'Ground', items: [item()], ...session },
    }),
  },
  {
    name: 'purchase',
    label: 'purchase',
    description: 'A purchase was completed (transaction_id, currency, value, tax, shipping, coupon, items).',
    build: () => ({
      name: 'purchase',
      params: {
        transaction_id: 'T_12345',
        currency: 'USD',
        value: 30.03,
        tax: 4.9,
        shipping: 5.99,
        coupon: 'SUMMER_FUN',
        items: [item()],
        ...session,
      },
    }),
  },
  {
    name: 'refund',
    label: 'refund',
    description: 'A purchase was refunded, fully or for some items (transaction_id, currency, value, items).',
    build: () => ({ name: 'refund', params: { transaction_id: 'T_12345', currency: 'USD', value: 30.03, items: [item()], ...session } }),
  },
  {
    name: 'generate_lead',
    label: 'generate_lead',
    description: 'A lead was generated, e.g. a form sent (currency, value, lead_source).',
    build: () => ({ name: 'generate_lead', params: { currency: 'USD', value: 30.03, lead_source: 'Trade show', ...session } }),
  },
  {
    name: 'tutorial_begin',
    label: 'tutorial_begin',
    description: 'The onboarding tutorial started.',
    build: () => ({ name: 'tutorial_begin', params: { ...session } }),
  },
  {
    name: 'tutorial_complete',
    label: 'tutorial_complete',
    description: 'The onboarding tutorial was completed.',
    build: () => ({ name: 'tutorial_complete', params: { ...session } }),
  },
  {
    name: 'share',
    label: 'share',
    description: 'Content was shared (method, content_type, item_id).',
    build: () => ({ name: 'share', params: { method: 'Twitter', content_type: 'image', item_id: 'C_12345', ...session } }),
  },
];

export function templateNamed(name: string): Ga4mpTemplate | undefined {
  return GA4MP_TEMPLATES.find((template) => template.name === name);
}
