import { backoffAfter, DEFAULT_CAMPAIGN_SENDER_OPTIONS } from './campaign-sender.options.js';
import { classifyFailure } from './campaign-transport.js';

describe('campaign delivery failures', () => {
  it('treats SMTP 5xx as permanent, 4xx and connection errors as temporary', () => {
    expect(classifyFailure(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))).toEqual({
      kind: 'permanent',
      code: 550,
      message: 'Mailbox unavailable',
    });
    expect(classifyFailure(Object.assign(new Error('Try again later'), { responseCode: 451 })).kind).toBe('temporary');
    expect(classifyFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toEqual({
      kind: 'temporary',
      code: null,
      message: 'connect ECONNREFUSED',
    });
  });

  it('backs off 1 m, 5 m, 30 m, then 2 h for any further attempt', () => {
    const delays = [1, 2, 3, 4, 5].map((attempts) => backoffAfter(DEFAULT_CAMPAIGN_SENDER_OPTIONS, attempts) / 60_000);
    expect(delays).toEqual([1, 5, 30, 120, 120]);
    expect(DEFAULT_CAMPAIGN_SENDER_OPTIONS.maxAttempts).toBe(4);
  });
});
