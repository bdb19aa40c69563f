/**
 * User-agent classification for first-party analytics: families only (no versions), computed once
 * per event and never stored (only the family's counter is). A compact, ordered list rather than a
 * dependency: the dashboard needs "Chrome on Android, mobile", not a device database.
 */

export type DeviceClass = 'desktop' | 'mobile' | 'tablet';

export interface UserAgentFamilies {
  browser: string;
  os: string;
  device: DeviceClass;
}

/**
 * Automated clients that announce themselves. Matched case-insensitively anywhere in the UA: crawler
 * names, HTTP libraries and monitoring services. `bot|crawl|spider|slurp` covers most search and SEO
 * crawlers; the rest are libraries and tools whose UAs carry none of those words.
 */
const BOT_PATTERN = new RegExp(
  [
    'bot\\b',
    'bot[/_;-]',
    'crawl',
    'spider',
    'slurp',
    'scrap',
    'archiver',
    'facebookexternalhit',
    'mediapartners-google',
    'adsbot',
    'lighthouse',
    'pagespeed',
    'gtmetrix',
    'pingdom',
    'uptime',
    'monitor',
    'curl/',
    'wget/',
    'python-requests',
    'python-urllib',
    'aiohttp',
    'httpx',
    'go-http-client',
    'okhttp',
    'java/',
    'apache-httpclient',
    'libwww-perl',
    'node-fetch',
    'axios/',
    'undici',
    'postmanruntime',
    'insomnia',
    'httpie',
    'feedfetcher',
    'rss',
    'preview',
    'embedly',
    'whatsapp',
    'telegrambot',
    'discordbot',
    'skypeuripreview',
    'bingpreview',
    'yandex',
    'baiduspider',
    'petalbot',
    'semrush',
    'ahrefs',
    'mj12',
    'dotbot',
    'gptbot',
    'chatgpt',
    'claude',
    'perplexity',
    'bytespider',
    'ccbot',
  ].join('|'),
  'i',
);

/** Browsers driven by automation that keep a browser-like UA. */
const HEADLESS_PATTERN = /headlesschrome|phantomjs|puppeteer|playwright|selenium|webdriver|electron\/.*headless|slimerjs/i;

export type AutomationReason = 'bot' | 'headless';

/**
 * Why a UA is not a person, or null. An empty or very short UA is a script (every browser sends a
 * long one). Headless is checked first: HeadlessChrome UAs otherwise look like Chrome.
 */
export function automationReason(userAgent: string | undefined): AutomationReason | null {
  const ua = userAgent?.trim() ?? '';
  if (ua.length < 16) return 'bot';
  if (HEADLESS_PATTERN.test(ua)) return 'headless';
  if (BOT_PATTERN.test(ua)) return 'bot';
  // Real browsers all start with Mozilla/ or Opera/; anything else claiming to be a page view is a tool.
  if (!/^(mozilla|opera)\//i.test(ua)) return 'bot';
  return null;
}

/** Ordered: the first match wins (Edge and Opera also say Chrome; Chrome also says Safari). */
const BROWSERS: Array<[RegExp, string]> = [
  [/edg(e|a|ios)?\//i, 'Edge'],
  [/opr\/|opera/i, 'Opera'],
  [/samsungbrowser\//i, 'Samsung Internet'],
  [/yabrowser\//i, 'Yandex Browser'],
  [/vivaldi\//i, 'Vivaldi'],
  [/firefox\/|fxios\//i, 'Firefox'],
  [/crios\/|chrome\/|chromium\//i, 'Chrome'],
  [/version\/[\d.]+.*safari\//i, 'Safari'],
  [/safari\//i, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/windows phone/i, 'Windows Phone'],
  [/windows/i, 'Windows'],
  [/iphone|ipad|ipod/i, 'iOS'],
  [/android/i, 'Android'],
  [/cros/i, 'ChromeOS'],
  [/mac os x|macintosh/i, 'macOS'],
  [/linux|x11/i, 'Linux'],
];

/** Browser and OS families and the device class; "Other" where nothing matches. */
export function parseUserAgent(userAgent: string): UserAgentFamilies {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Other';
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Other';
  let device: DeviceClass = 'desktop';
  // Android tablets drop "Mobile" from the UA; iPads say iPad (iPadOS 13+ claims to be a Mac, and counts as one).
  if (/ipad|tablet|kindle|silk|playbook/i.test(userAgent) || (/android/i.test(userAgent) && !/mobile/i.test(userAgent))) {
    device = 'tablet';
  } else if (/mobi|iphone|ipod|phone/i.test(userAgent)) {
    device = 'mobile';
  }
  return { browser, os, device };
}
