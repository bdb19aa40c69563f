import { crossSiteWrite, isLoopbackHostname } from './request-origin.js';

const PUBLIC = 'https://hitscope.example';

describe('crossSiteWrite', () => {
  it.each([
    ['no Origin and no fetch metadata (a script, an older browser)', {}],
    ['our own origin, same-origin', { origin: PUBLIC, 'sec-fetch-site': 'same-origin' }],
    ['our own origin without fetch metadata', { origin: PUBLIC }],
    ['fetch metadata alone, same-origin', { 'sec-fetch-site': 'same-origin' }],
    ["the user's own navigation (none)", { 'sec-fetch-site': 'none' }],
  ])('lets through %s', (_label, headers) => {
    expect(crossSiteWrite(headers, PUBLIC)).toBeNull();
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['a look-alike host', { origin: 'https://hitscope.example.evil.example' }],
    ['another scheme', { origin: 'http://hitscope.example' }],
    ['another port', { origin: 'https://hitscope.example:8443' }],
    ['a sibling subdomain', { origin: 'https://files.hitscope.example' }],
    ['an opaque origin (null)', { origin: 'null' }],
    ['an empty Origin', { origin: '' }],
    ['our origin but cross-site fetch metadata', { origin: PUBLIC, 'sec-fetch-site': 'cross-site' }],
    ['cross-site fetch metadata alone', { 'sec-fetch-site': 'cross-site' }],
    ['same-site fetch metadata (a sibling host)', { 'sec-fetch-site': 'same-site' }],
    ['fetch metadata in capitals', { 'sec-fetch-site': 'Cross-Site' }],
  ])('refuses %s', (_label, headers) => {
    expect(crossSiteWrite(headers, PUBLIC)).not.toBeNull();
  });
});

describe('crossSiteWrite with PUBLIC_URL unset (a guess): the loopback origin the request came to', () => {
  const GUESS = 'http://localhost:3000';

  it.each([
    ['127.0.0.1, the address npm start prints', { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' }],
    ['localhost, the guess itself', { origin: 'http://localhost:3000', host: 'localhost:3000' }],
    ['IPv6 loopback', { origin: 'http://[::1]:3000', host: '[::1]:3000' }],
    ['another loopback address on another port', { origin: 'http://127.0.0.2:8080', host: '127.0.0.2:8080' }],
    ['a host name in capitals', { origin: 'http://localhost:3000', host: 'LOCALHOST:3000' }],
  ])('accepts %s', (_label, headers) => {
    expect(crossSiteWrite({ ...headers, 'sec-fetch-site': 'same-origin' }, GUESS, true)).toBeNull();
  });

  it.each([
    ['a loopback page on another port (another origin)', { origin: 'http://127.0.0.1:5173', host: '127.0.0.1:3000' }],
    ['a DNS-rebinding name pointing at 127.0.0.1', { origin: 'http://evil.example:3000', host: 'evil.example:3000' }],
    ['https to a plain-http server', { origin: 'https://127.0.0.1:3000', host: '127.0.0.1:3000' }],
    ['no Host header', { origin: 'http://127.0.0.1:3000' }],
    ['a Host header that is not a host', { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000/x' }],
    ['a LAN address (not loopback)', { origin: 'http://192.168.1.5:3000', host: '192.168.1.5:3000' }],
  ])('refuses %s', (_label, headers) => {
    expect(crossSiteWrite(headers, GUESS, true)).not.toBeNull();
  });

  it('refuses the loopback origin when PUBLIC_URL names another one', () => {
    expect(crossSiteWrite({ origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' }, 'https://hitscope.example')).toBe(
      'Origin http://127.0.0.1:3000',
    );
  });

  it('knows loopback names and addresses', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.255.0.9', '[::1]', '::1'])
      expect(isLoopbackHostname(host)).toBe(true);
    for (const host of ['localhost.evil.example', '128.0.0.1', '10.0.0.1', '[::2]', '127.0.0.1.evil.example']) {
      expect(isLoopbackHostname(host)).toBe(false);
    }
  });
});
