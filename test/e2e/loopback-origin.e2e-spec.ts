import { csrfToken, newAgent, PASSWORD, uniqueEmail } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';
import { startInstance, type TestInstance } from '../support/test-instance.js';

/**
 * A newcomer's `npm start`: PUBLIC_URL unset, so the app guesses `http://localhost:PORT`, and the
 * browser is at `http://127.0.0.1:PORT` (what the start-up log prints). Its forms must work there,
 * and at localhost, while a page of another origin stays refused.
 */
describe('PUBLIC_URL unset: writes from the loopback address the app was opened at', () => {
  let instance: TestInstance;
  let port: string;

  beforeAll(async () => {
    instance = await startInstance(testDatabaseUri('loopback_origin'), { PUBLIC_URL: '' });
    port = new URL(instance.origin).port;
  }, 60_000);

  afterAll(() => instance?.running.close());

  /** Registers through the form as a browser at `origin` does (its Host header and Origin). */
  async function register(origin: string, host = new URL(origin).host) {
    const agent = newAgent(instance.origin);
    const token = await csrfToken(agent);
    return agent
      .post('/api/auth/register')
      .set('Host', host)
      .set('Origin', origin)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('x-csrf-token', token)
      .send({ name: 'Newcomer', email: uniqueEmail('loopback'), password: PASSWORD });
  }

  it('registers from http://127.0.0.1:PORT and from http://localhost:PORT', async () => {
    expect((await register(`http://127.0.0.1:${port}`)).status).toBe(202);
    expect((await register(`http://localhost:${port}`)).status).toBe(202);
  });

  it('still refuses a page of another origin, a loopback one on another port included', async () => {
    for (const [origin, host] of [
      [`http://127.0.0.1:${Number(port) + 1}`, `127.0.0.1:${port}`],
      ['https://evil.example', `127.0.0.1:${port}`],
      [`http://evil.example:${port}`, `evil.example:${port}`],
    ]) {
      const response = await register(origin, host);
      expect({ origin, status: response.status, code: (response.body as { code?: string }).code }).toEqual({
        origin,
        status: 403,
        code: 'CROSS_SITE_REQUEST',
      });
    }
  });
});
