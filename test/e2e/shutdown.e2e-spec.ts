import { MongoClient } from 'mongodb';
import { testDatabaseUri } from '../support/test-database.js';
import { startInstance } from '../support/test-instance.js';

/**
 * A shutdown under traffic, as a deployment does it: the server stops taking requests first, and
 * only then do the modules write what they hold in memory (src/common/stop-accepting.ts).
 */
describe('shutting down under traffic', () => {
  it('loses no page view it answered 202 to, and refuses new connections once closing', async () => {
    const mongodbUri = testDatabaseUri('shutdown');
    const { running, origin } = await startInstance(mongodbUri, { TRUST_PROXY: 'true' });
    // Each view from its own address (X-Forwarded-For, read with TRUST_PROXY): the collector limits
    // how many one address may send a minute.
    let sent = 0;
    const view = () =>
      fetch(`${origin}/api/e`, {
        method: 'POST',
        headers: {
          'content-type': 'text/plain',
          origin,
          'sec-fetch-site': 'same-origin',
          'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
          'x-forwarded-for': `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${(sent += 1) & 255}`,
        },
        body: JSON.stringify({ p: '/shutdown' }),
      });

    // Four browsers sending page views until the server stops answering.
    let accepted = 0;
    let closing = false;
    const browser = async () => {
      for (;;) {
        try {
          const answer = await view();
          await answer.arrayBuffer();
          if (answer.status === 202) accepted += 1;
        } catch {
          if (closing) return;
        }
      }
    };
    const browsers = Promise.all([browser(), browser(), browser(), browser()]);
    // Without stopping first, views answered while the modules wrote their last counts were lost
    // (254 answered, 242 counted, in one run).
    await new Promise((resolve) => setTimeout(resolve, 300));
    closing = true;
    const started = Date.now();
    await running.close();
    await browsers;
    expect(Date.now() - started).toBeLessThan(8_000);
    await expect(fetch(`${origin}/health/live`)).rejects.toThrow();

    const mongo = await MongoClient.connect(mongodbUri);
    try {
      // Today's count, and yesterday's should the run straddle midnight (UTC).
      const days = [Date.now(), Date.now() - 86_400_000].map((at) => new Date(at).toISOString().slice(0, 10));
      const counters = await mongo
        .db()
        .collection<{ _id: string; n: number }>('analytics_counters')
        .find({ _id: { $in: days.map((day) => `${day}|total|pageviews`) } })
        .toArray();
      const counted = counters.reduce((sum, counter) => sum + counter.n, 0);
      expect(accepted).toBeGreaterThan(0);
      expect(counted).toBeGreaterThanOrEqual(accepted);
    } finally {
      await mongo.close();
    }
  }, 30_000);
});
