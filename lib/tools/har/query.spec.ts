import { mergePairs, parsePairs, safeDecode, splitUrl } from './query.js';

describe('query helpers', () => {
  it('parses pairs in order, decoding + as a space and keeping malformed escapes raw', () => {
    expect(parsePairs('a=1&b=x+y&c&d=%E2%80%93&e=%E0%A4%A')).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', ''],
      ['d', '–'],
      ['e', '%E0%A4%A'],
    ]);
    expect(parsePairs('src=1;type=sales;~oref=https%3A%2F%2Fa.b%2F', ';')).toEqual([
      ['src', '1'],
      ['type', 'sales'],
      ['~oref', 'https://a.b/'],
    ]);
    expect(safeDecode('100%')).toBe('100%');
  });

  it('splits host, path and query without new URL', () => {
    expect(splitUrl('https://User@Region1.Google-Analytics.com:443/g/collect?v=2&tid=G-1#x')).toEqual({
      host: 'region1.google-analytics.com',
      path: '/g/collect',
      query: 'v=2&tid=G-1',
    });
    expect(splitUrl('https://1234.fls.doubleclick.net/activityi;src=1;cat=a?')).toEqual({
      host: '1234.fls.doubleclick.net',
      path: '/activityi;src=1;cat=a',
      query: '',
    });
    // Protocol-relative and WebSocket URLs.
    expect(splitUrl('//www.facebook.com/tr?id=1&ev=PageView')).toEqual({
      host: 'www.facebook.com',
      path: '/tr',
      query: 'id=1&ev=PageView',
    });
    expect(splitUrl('wss://ws.hotjar.com/api/v2/client/ws?site_id=1')).toEqual({
      host: 'ws.hotjar.com',
      path: '/api/v2/client/ws',
      query: 'site_id=1',
    });
  });

  it('lets per-event pairs override shared ones in place and appends new keys', () => {
    expect(
      mergePairs(
        [
          ['v', '2'],
          ['_s', '3'],
          ['dl', 'x'],
        ],
        [
          ['en', 'scroll'],
          ['_s', '4'],
        ],
      ),
    ).toEqual([
      ['v', '2'],
      ['_s', '4'],
      ['dl', 'x'],
      ['en', 'scroll'],
    ]);
  });
});
