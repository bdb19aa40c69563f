import { APP_LIMITS, RESERVED_EVENT_NAMES as APP_RESERVED } from './applog/rules.js';
import { GA4_COLLECTION_LIMITS, GA4_RESERVED_EVENT_NAMES, paramValueLimit } from './ga4-collection-rules.js';
import { GA4MP_LIMITS, RESERVED_EVENT_NAMES as MP_RESERVED } from './ga4mp/limits.js';
import { GA4_LIMITS, GA4_RESERVED_EVENT_NAMES_ON_THE_WEB } from './har/ga4-limits.js';

describe('GA4 collection rules shared by the three tools', () => {
  it('gives every tool the same collection limits', () => {
    for (const limits of [GA4MP_LIMITS, APP_LIMITS, GA4_LIMITS]) expect(limits).toMatchObject(GA4_COLLECTION_LIMITS);
  });

  it('documents the longer page_* value limits', () => {
    expect([
      paramValueLimit('page_location'),
      paramValueLimit('page_referrer'),
      paramValueLimit('page_title'),
      paramValueLimit('currency'),
    ]).toEqual([1000, 420, 300, 100]);
  });

  it("differs on reserved event names only where a tool's context says so", () => {
    expect([...MP_RESERVED]).toEqual([...GA4_RESERVED_EVENT_NAMES]);
    expect([...APP_RESERVED].filter((name) => !GA4_RESERVED_EVENT_NAMES.has(name))).toEqual(['app_uninstall']);
    expect([...GA4_RESERVED_EVENT_NAMES].filter((name) => !GA4_RESERVED_EVENT_NAMES_ON_THE_WEB.has(name))).toEqual(['user_engagement']);
  });
});
