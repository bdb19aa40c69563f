import { COMPANION_PRODUCTS, type ToolSlug } from '../../../lib/product.js';
import type { IconName } from '../../components/Icon.js';

/** What each tool does, in the words of someone who has debugged a broken tag at 11 pm. */
export const TOOL_DETAILS: Record<ToolSlug, { icon: IconName; points: readonly string[] }> = {
  ga4mp: {
    icon: 'bolt',
    points: [
      'Web streams (measurement_id + api_secret) and app streams (firebase_app_id + api_secret).',
      'Validated locally against GA4’s documented rules, with the same messages and codes as the validation server.',
      'Send to the debug endpoint first, then for real; every payload you send stays in your history.',
    ],
  },
  'google-tag-linker': {
    icon: 'link',
    points: [
      'Paste a _gl value or a whole decorated URL and see _ga, _ga_<id>, _gcl_* and FPLC.',
      'Check the fingerprint against a user agent, language, timezone and time to see why a link was rejected.',
      'Generate a _gl value or a decorated URL from cookies to test a cross-domain setup.',
    ],
  },
  [COMPANION_PRODUCTS.browsers.slug]: {
    icon: 'compass',
    points: [
      'Drop a HAR export from devtools: every GA4 /g/collect hit, batched POST bodies included.',
      'Google, Adobe, Matomo, Segment, Meta and 40 more analytics, ad and tag-manager vendors decoded into named parameters.',
      'Warnings for missing consent state, duplicate page_view and missing client id.',
    ],
  },
  [COMPANION_PRODUCTS.apps.slug]: {
    icon: 'phone',
    points: [
      'Paste or drop Android logcat or iOS console output with Firebase / GA4 debug logging on.',
      'The event stream decoded event by event, checked against GA4 and Firebase limits.',
      'The desktop app for Windows, macOS and Linux comes with every plan.',
    ],
  },
};

export const STEPS = [
  {
    title: 'Capture',
    text: 'Export a HAR file from your browser’s devtools, copy a decorated URL, paste a logcat excerpt or write a Measurement Protocol payload. No tag changes, no proxy to install.',
  },
  {
    title: 'Decode',
    text: 'Every hit is split into named parameters: event name, measurement ID, client and session IDs, consent state, page location and every custom parameter.',
  },
  {
    title: 'Fix with evidence',
    text: 'Warnings point at the exact hit and parameter that is wrong. Validate the fix before it ships, and send your developers a finding instead of a hunch.',
  },
] as const;

export const REASONS: ReadonlyArray<{ icon: IconName; title: string; text: string }> = [
  {
    icon: 'shield',
    title: 'Your files stay on your machine',
    text: 'HAR files and app logs are analysed in your browser and never uploaded. Client data in a HAR export is not ours to keep.',
  },
  {
    icon: 'check',
    title: 'Same rules as Google',
    text: 'Measurement Protocol payloads are checked against GA4’s documented limits, with the validation server’s own messages and codes.',
  },
  {
    icon: 'eye',
    title: 'Consent mode, visible',
    text: 'See the consent state every hit was sent with, and catch the hits that were sent without one.',
  },
];

export const HERO_EXAMPLE: ReadonlyArray<{ key: string; value: string; note: string }> = [
  { key: 'en', value: 'page_view', note: 'event name' },
  { key: 'tid', value: 'G-8XK2Q4M1ZP', note: 'measurement ID' },
  { key: 'cid', value: '1849271203.1763798400', note: 'client ID' },
  { key: 'gcs', value: 'G101', note: 'ad_storage denied, analytics_storage granted' },
  { key: 'dl', value: 'https://shop.example.com/checkout', note: 'page location' },
];
