import { randomBytes } from 'node:crypto';

/** A MongoDB URI for a database of this suite's own on the shared test server (see global setup). */
export function testDatabaseUri(suite: string): string {
  const base = process.env.HITSCOPE_TEST_MONGODB_URI;
  if (!base) throw new Error('HITSCOPE_TEST_MONGODB_URI is not set: run the suites through jest');
  const url = new URL(base);
  url.pathname = `/hitscope_${suite}_${randomBytes(3).toString('hex')}`;
  return url.toString();
}
