import { crossSiteWrite } from './request-origin.js';

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
