/**
 * Known referrer-spam domains (a short excerpt of the community list matomo-org/referrer-spam-list,
 * the domains most often reported against self-hosted analytics). A referrer whose host is one of
 * these, or a subdomain of one, is dropped and counted as `spam`. Kept short on purpose: the list
 * lives in the bundle of the server, and the ignore list in the analytics settings covers the rest.
 */
export const REFERRER_SPAM_DOMAINS: readonly string[] = [
  'semalt.com',
  'buttons-for-website.com',
  'buttons-for-your-website.com',
  'darodar.com',
  'best-seo-offer.com',
  'best-seo-solution.com',
  'blackhatworth.com',
  'hulfingtonpost.com',
  'priceg.com',
  'ilovevitaly.com',
  'ilovevitaly.ru',
  'econom.co',
  'savetubevideo.com',
  'kambasoft.com',
  'cenoval.ru',
  'get-free-traffic-now.com',
  'free-social-buttons.com',
  'social-buttons.com',
  'trafficmonetize.org',
  'floating-share-buttons.com',
  'rank-checker.online',
  'seo-platform.com',
  'webmonetizer.net',
  'traffic2money.com',
  'success-seo.com',
  'video--production.com',
  'o-o-6-o-o.com',
  'site-auditor.online',
  'sharebutton.net',
  'simple-share-buttons.com',
];

const SPAM = new Set(REFERRER_SPAM_DOMAINS);

export function isSpamReferrer(host: string): boolean {
  let candidate = host.toLowerCase();
  for (;;) {
    if (SPAM.has(candidate)) return true;
    const dot = candidate.indexOf('.');
    if (dot < 0 || candidate.indexOf('.', dot + 1) < 0) return false;
    candidate = candidate.slice(dot + 1);
  }
}
