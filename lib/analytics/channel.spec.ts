import { classifyChannel } from './channel.js';

describe('classifyChannel', () => {
  it.each([
    [{ referrerHost: '' }, 'Direct'],
    [{ referrerHost: 'google.com' }, 'Organic search'],
    [{ referrerHost: 'www.google.co.uk' }, 'Organic search'],
    [{ referrerHost: 'duckduckgo.com' }, 'Organic search'],
    [{ referrerHost: 'search.brave.com' }, 'Organic search'],
    [{ referrerHost: 'google.com', utmMedium: 'cpc' }, 'Paid search'],
    [{ referrerHost: '', utmSource: 'google', utmMedium: 'Paid_Search' }, 'Paid search'],
    [{ referrerHost: '', utmSource: 'newsletter' }, 'Email'],
    [{ referrerHost: '', utmSource: 'hitscope', utmMedium: 'email' }, 'Email'],
    [{ referrerHost: 'mail.google.com' }, 'Email'],
    [{ referrerHost: 't.co' }, 'Social'],
    [{ referrerHost: 'news.ycombinator.com' }, 'Social'],
    [{ referrerHost: 'old.reddit.com' }, 'Social'],
    [{ referrerHost: '', utmSource: 'linkedin' }, 'Social'],
    [{ referrerHost: 'example.org', utmMedium: 'social' }, 'Social'],
    [{ referrerHost: 'example.org' }, 'Referral'],
    [{ referrerHost: 'notgoogle.example' }, 'Referral'],
    [{ referrerHost: '', utmSource: 'partner-blog' }, 'Referral'],
  ] as const)('%p → %s', (input, expected) => {
    expect(classifyChannel(input)).toBe(expected);
  });
});
