import { automationReason, parseUserAgent } from './user-agent.js';

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const EDGE_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const CHROME_ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const SAMSUNG =
  'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('parseUserAgent', () => {
  it.each([
    [CHROME_WIN, { browser: 'Chrome', os: 'Windows', device: 'desktop' }],
    [SAFARI_IPHONE, { browser: 'Safari', os: 'iOS', device: 'mobile' }],
    [FIREFOX_LINUX, { browser: 'Firefox', os: 'Linux', device: 'desktop' }],
    [EDGE_MAC, { browser: 'Edge', os: 'macOS', device: 'desktop' }],
    [CHROME_ANDROID_TABLET, { browser: 'Chrome', os: 'Android', device: 'tablet' }],
    [CHROME_ANDROID_PHONE, { browser: 'Chrome', os: 'Android', device: 'mobile' }],
    [SAMSUNG, { browser: 'Samsung Internet', os: 'Android', device: 'mobile' }],
    [IPAD, { browser: 'Safari', os: 'iOS', device: 'tablet' }],
    ['Mozilla/5.0 (compatible; something unknown)', { browser: 'Other', os: 'Other', device: 'desktop' }],
  ])('%s', (ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });
});

describe('automationReason', () => {
  it('lets real browsers through', () => {
    for (const ua of [CHROME_WIN, SAFARI_IPHONE, FIREFOX_LINUX, EDGE_MAC, SAMSUNG, IPAD]) expect(automationReason(ua)).toBeNull();
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'curl/8.5.0',
    'python-requests/2.32.3',
    'Go-http-client/1.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Lighthouse',
    'PostmanRuntime/7.42.0',
    'Wget/1.21.4',
    '',
    'short',
  ])('calls %p a bot', (ua) => {
    expect(automationReason(ua)).toBe('bot');
  });

  it('calls headless and driven browsers headless', () => {
    expect(
      automationReason('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'),
    ).toBe('headless');
    expect(automationReason('Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1')).toBe(
      'headless',
    );
  });
});
