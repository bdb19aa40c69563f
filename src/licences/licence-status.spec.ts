import { licenceCode, validUntil } from './licence-status.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);
const base = { state: 'active' as const, expiresAt: null, graceUntil: null, revokedAt: null };

describe('licenceCode', () => {
  it.each([
    ['a lifetime licence', base, 'VALID'],
    ['a paid period still running', { ...base, expiresAt: days(3) }, 'VALID'],
    ['a paid period that ended', { ...base, expiresAt: days(-1) }, 'EXPIRED'],
    ['a paid period that ended, grace running', { ...base, expiresAt: days(-1), graceUntil: days(2) }, 'VALID'],
    ['past due within grace', { ...base, state: 'past_due' as const, expiresAt: days(-1), graceUntil: days(5) }, 'VALID'],
    ['past due after grace', { ...base, state: 'past_due' as const, expiresAt: days(-10), graceUntil: days(-1) }, 'EXPIRED'],
    ['suspended', { ...base, state: 'suspended' as const, expiresAt: days(30) }, 'SUSPENDED'],
    ['revoked by billing', { ...base, state: 'revoked' as const }, 'REVOKED'],
    ['revoked by an administrator, billing says active', { ...base, revokedAt: days(-1) }, 'REVOKED'],
    ['expired by billing', { ...base, state: 'expired' as const, expiresAt: days(10) }, 'EXPIRED'],
  ])('%s', (_label, licence, code) => {
    expect(licenceCode(licence, NOW)).toBe(code);
  });

  it('knows until when a licence is valid', () => {
    expect(validUntil(base)).toBeNull();
    expect(validUntil({ ...base, expiresAt: days(3) })).toEqual(days(3));
    expect(validUntil({ ...base, state: 'past_due', expiresAt: days(-1), graceUntil: days(5) })).toEqual(days(5));
  });
});
