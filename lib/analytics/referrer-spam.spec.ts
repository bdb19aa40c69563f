import { analyticsDisclosure } from './disclosure.js';
import { isSpamReferrer } from './referrer-spam.js';
import { DEFAULT_ANALYTICS_SETTINGS } from '../api/analytics.js';

describe('referrer spam', () => {
  it('matches listed domains and their subdomains only', () => {
    expect(isSpamReferrer('semalt.com')).toBe(true);
    expect(isSpamReferrer('www.semalt.com')).toBe(true);
    expect(isSpamReferrer('a.b.darodar.com')).toBe(true);
    expect(isSpamReferrer('notsemalt.com')).toBe(false);
    expect(isSpamReferrer('google.com')).toBe(false);
  });
});

describe('analyticsDisclosure', () => {
  it('describes the live settings', () => {
    const on = analyticsDisclosure(DEFAULT_ANALYTICS_SETTINGS);
    expect(on).toContain('kept for 730 days');
    expect(on).toContain('Global Privacy Control or Do Not Track, your visits are not counted');
    expect(on).toMatch(/never stored/);
    const off = analyticsDisclosure({ ...DEFAULT_ANALYTICS_SETTINGS, retentionDays: 90, respectPrivacySignals: false });
    expect(off).toContain('kept for 90 days');
    expect(off).not.toContain('your visits are not counted');
  });
});
