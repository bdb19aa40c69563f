import { hashIp, newsletterKey, signNewsletterToken, verifyNewsletterToken } from './newsletter-token.js';

const KEY = newsletterKey('a-test-secret-that-is-long-enough-123456');
const NOW = Date.UTC(2026, 10, 24);

describe('newsletter tokens', () => {
  it('verifies a token of the right purpose before it expires', () => {
    const token = signNewsletterToken(KEY, { purpose: 'confirm', email: 'ada@example.com', expiresAt: NOW + 1000 });
    expect(verifyNewsletterToken(KEY, token, 'confirm', NOW)).toEqual({
      purpose: 'confirm',
      email: 'ada@example.com',
      expiresAt: NOW + 1000,
    });
  });

  it('refuses an expired token, another purpose, another key and a tampered payload', () => {
    const token = signNewsletterToken(KEY, { purpose: 'confirm', email: 'ada@example.com', expiresAt: NOW + 1000 });
    expect(verifyNewsletterToken(KEY, token, 'confirm', NOW + 1000)).toBeNull();
    expect(verifyNewsletterToken(KEY, token, 'unsubscribe', NOW)).toBeNull();
    expect(verifyNewsletterToken(newsletterKey('another-secret-that-is-long-enough-1234'), token, 'confirm', NOW)).toBeNull();
    const [, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: 'confirm', e: 'eve@example.com', x: NOW + 1000 })).toString('base64url');
    expect(verifyNewsletterToken(KEY, `${forged}.${signature}`, 'confirm', NOW)).toBeNull();
    expect(verifyNewsletterToken(KEY, 'garbage', 'confirm', NOW)).toBeNull();
    expect(verifyNewsletterToken(KEY, 42, 'confirm', NOW)).toBeNull();
  });

  it('keeps unsubscribe tokens valid forever', () => {
    const token = signNewsletterToken(KEY, { purpose: 'unsubscribe', email: 'ada@example.com', expiresAt: null });
    expect(verifyNewsletterToken(KEY, token, 'unsubscribe', NOW + 10 * 365 * 86_400_000)?.email).toBe('ada@example.com');
  });

  it('hashes an IP without keeping it', () => {
    const hashed = hashIp(KEY, '203.0.113.7');
    expect(hashed).toHaveLength(22);
    expect(hashed).not.toContain('203');
    expect(hashIp(KEY, undefined)).toBeNull();
  });
});
