/**
 * Channel grouping of a page view's source, in this order (the first rule that matches wins):
 *
 * 1. `utm_medium` of cpc / ppc / paid search / sem (any case, `-`/`_`/space alike) → Paid search.
 * 2. `utm_medium` or `utm_source` of email / e-mail / newsletter → Email.
 * 3. `utm_medium` of social / social-network / social-media / sm / paid social → Social.
 * 4. The referrer host, or failing that `utm_source`, names a search engine → Organic search;
 *    a social network → Social; a webmail host → Email.
 * 5. Any other referrer host or `utm_source` → Referral.
 * 6. Nothing (no external referrer, no UTM) → Direct.
 *
 * Hosts match as the domain or any subdomain; `utm_source` matches a host's first label too
 * (`google`, `facebook`, `linkedin`).
 */
export const CHANNELS = ['Direct', 'Organic search', 'Paid search', 'Social', 'Email', 'Referral'] as const;
export type Channel = (typeof CHANNELS)[number];

const SEARCH = [
  'google',
  'bing.com',
  'duckduckgo.com',
  'yahoo',
  'yandex',
  'baidu.com',
  'ecosia.org',
  'qwant.com',
  'search.brave.com',
  'startpage.com',
  'kagi.com',
  'naver.com',
  'seznam.cz',
];
const SOCIAL = [
  'facebook.com',
  'fb.com',
  'm.facebook.com',
  'instagram.com',
  't.co',
  'twitter.com',
  'x.com',
  'linkedin.com',
  'lnkd.in',
  'reddit.com',
  'news.ycombinator.com',
  'youtube.com',
  'bsky.app',
  'threads.net',
  'mastodon.social',
  'pinterest.com',
  'tiktok.com',
  'stackoverflow.com',
  'github.com',
];
const WEBMAIL = ['mail.google.com', 'outlook.live.com', 'outlook.office.com', 'mail.yahoo.com', 'mail.proton.me'];

const normalise = (value: string | undefined) =>
  value
    ?.trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-') ?? '';

/** `google` matches google.com, google.co.uk and www.google.de; `bing.com` matches www.bing.com. */
function hostIn(host: string, list: readonly string[]): boolean {
  return list.some((entry) => {
    if (!entry.includes('.')) return host === entry || host.startsWith(`${entry}.`) || host.includes(`.${entry}.`);
    return host === entry || host.endsWith(`.${entry}`);
  });
}

/** A UTM source word (`google`, `facebook`) or host matched against a host list. */
function sourceIn(source: string, list: readonly string[]): boolean {
  if (!source) return false;
  if (source.includes('.')) return hostIn(source, list);
  return list.some((entry) => entry === source || entry.split('.')[0] === source || entry.split('.').slice(-2)[0] === source);
}

export interface ChannelInput {
  /** The external referrer's host (lower case), or '' when none. */
  referrerHost: string;
  utmSource?: string;
  utmMedium?: string;
}

export function classifyChannel({ referrerHost, utmSource, utmMedium }: ChannelInput): Channel {
  const medium = normalise(utmMedium);
  const source = normalise(utmSource);
  const host = referrerHost.toLowerCase();
  if (/^(cpc|ppc|paid-?search|sem|paid)$/.test(medium)) return 'Paid search';
  if (/^(e-?mail|newsletter)$/.test(medium) || /^(e-?mail|newsletter)$/.test(source)) return 'Email';
  if (/^(social|social-network|social-media|sm|paid-?social)$/.test(medium)) return 'Social';
  if (host) {
    if (hostIn(host, WEBMAIL)) return 'Email';
    if (hostIn(host, SEARCH)) return 'Organic search';
    if (hostIn(host, SOCIAL)) return 'Social';
  }
  if (sourceIn(source, SEARCH)) return 'Organic search';
  if (sourceIn(source, SOCIAL)) return 'Social';
  if (host || source) return 'Referral';
  return 'Direct';
}
