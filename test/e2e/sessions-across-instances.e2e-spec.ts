import { jest } from '@jest/globals';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Session } from '../../src/auth/schemas/session.schema.js';
import { SESSION_CACHE_MS } from '../../src/auth/sessions.service.js';
import { newAgent, settlesTo, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';
import { startInstance, type TestInstance } from '../support/test-instance.js';

/** The session id inside an access token (its `sid` claim). */
function sessionIdOf(accessToken: string): string {
  return (JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
}

/** One public address and signing key for both, as behind a load balancer: a session token names the address as its issuer. */
const startOnSharedAddress = (mongodbUri: string, publicUrl?: string) =>
  startInstance(mongodbUri, {
    AUTH_SECRET: 'sessions-across-instances-test-secret-0123456789',
    ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
  });

/**
 * Two instances on one database, as behind a load balancer. Each answers a session it read in the
 * last SESSION_CACHE_MS from memory (docs/performance.md): what one instance revokes, it refuses at
 * once; the other refuses it within SESSION_CACHE_MS.
 */
describe('sessions on two instances of one database', () => {
  let a: TestInstance;
  let b: TestInstance;
  let mongodbUri: string;

  beforeAll(async () => {
    mongodbUri = testDatabaseUri('sessions');
    a = await startOnSharedAddress(mongodbUri);
    b = await startOnSharedAddress(mongodbUri, a.origin);
  }, 60_000);

  afterAll(async () => {
    await a?.running.close();
    await b?.running.close();
  });

  it('a sign-out on one instance is refused there at once and on the other within SESSION_CACHE_MS, pages included', async () => {
    const person = await signUp({ agent: newAgent(a.origin), database: mongodbUri });
    const cookie = `hs_session=${person.session}`;
    const onB = () => newAgent(b.origin).get('/api/auth/me').set('Cookie', cookie);
    // Both instances have just read the session.
    await onB().expect(200);
    await newAgent(b.origin).get('/dashboard/lounge').set('Cookie', cookie).redirects(0).expect(200);
    await newAgent(a.origin).get('/api/auth/me').set('Cookie', cookie).expect(200);

    await person.agent.post('/api/auth/logout').set('x-csrf-token', person.token).expect(204);
    await newAgent(a.origin).get('/api/auth/me').set('Cookie', cookie).expect(401);
    const waited = await settlesTo(async () => (await onB()).status, 401, SESSION_CACHE_MS + 500);
    expect(waited).toBeLessThanOrEqual(SESSION_CACHE_MS + 500);
    await newAgent(b.origin).get('/dashboard/lounge').set('Cookie', cookie).redirects(0).expect(302);
  });

  it('reads a session once for the requests of the same moment, and again after SESSION_CACHE_MS', async () => {
    const person = await signUp({ agent: newAgent(b.origin), database: mongodbUri });
    const cookie = `hs_session=${person.session}`;
    const sessions = a.running.app.get<Model<Session>>(getModelToken(Session.name)).collection;
    const findOne = jest.spyOn(sessions, 'findOne');
    const readsOfThisSession = () =>
      findOne.mock.calls.filter(([filter]) => (filter as { _id?: unknown })._id === sessionIdOf(person.session)).length;
    try {
      const answers = await Promise.all(
        ['/api/auth/me', '/api/auth/me', '/dashboard/lounge', '/api/auth/me', '/dashboard/lounge'].map((path) =>
          newAgent(a.origin).get(path).set('Cookie', cookie).redirects(0),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(readsOfThisSession()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS + 100));
      await newAgent(a.origin).get('/api/auth/me').set('Cookie', cookie).expect(200);
      expect(readsOfThisSession()).toBe(2);
    } finally {
      findOne.mockRestore();
    }
  });
});
