import { GRACE_DAYS, LEASE_DAYS } from './licensing-api.service.js';
import { REFRESH_MS, RETIRED_KEY_PUBLISHED_DAYS } from './signing-keys.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('how long a retired signing key stays published', () => {
  it('outlives every lease it can have signed: an instance still signing with it for a refresh period, 7 days to exp, the longest grace', () => {
    const longestGrace = Math.max(...Object.values(GRACE_DAYS));
    const lastLeaseOver = REFRESH_MS + (LEASE_DAYS + longestGrace) * DAY_MS;
    expect(RETIRED_KEY_PUBLISHED_DAYS * DAY_MS).toBeGreaterThan(lastLeaseOver);
  });
});
