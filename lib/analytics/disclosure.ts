import type { AnalyticsSettings } from '../api/analytics.js';

/**
 * The privacy policy's paragraph on analytics, rendered from the live settings (Markdown, for
 * lib/markdown). It says exactly what src/analytics does; change both together.
 */
export function analyticsDisclosure(settings: AnalyticsSettings): string {
  const lines = [
    '## How our analytics counts visits',
    '',
    'We count visits with our own first-party analytics. It sets no cookies and stores nothing in your browser.',
    'When a page loads, your browser sends us the page path, the external site that linked to it (if any),',
    'any `utm_source`, `utm_medium` and `utm_campaign` values in the link, and a rough screen width.',
    '',
    'To count unique visitors without identifying you, the server computes a keyed hash of your IP address and',
    'browser user agent with a random key that is replaced every day at 00:00 UTC; the previous key is deleted',
    'after 48 hours, after which the hash cannot be recomputed. Your IP address and user agent are never stored.',
    'The per-visitor record (that hash, the first page, the number of pages and when you were last seen) is',
    'deleted 48 hours after the day ends; what remains are daily totals such as page views per page, referrer,',
    'browser family, operating system family, device type and country (taken from our hosting provider when it',
    'supplies one, never looked up from your IP address).',
    '',
    `Daily totals are kept for ${settings.retentionDays} days.`,
    settings.respectPrivacySignals
      ? 'If your browser sends Global Privacy Control or Do Not Track, your visits are not counted at all: our pages do not even send the page view.'
      : 'Global Privacy Control and Do Not Track signals do not change what is counted, since nothing identifies you.',
    'Visits by known bots and automated browsers are not counted as page views.',
  ];
  return lines.join('\n');
}
