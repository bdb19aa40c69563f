import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { PROJECT_ROOT } from '../../src/common/project-root.js';
import { SESSION_USER_CACHE_MS } from '../../src/users/users.service.js';
import { settlesTo, signUp } from '../support/e2e.js';

function promote(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'dist/app/src/cli.js'), ...args], {
      env: { ...process.env, MONGODB_URI: process.env.HITSCOPE_E2E_MONGODB_URI, LOG_LEVEL: 'error' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('the promote command', () => {
  // The command is another process: a running instance that has the account in memory sees the
  // change within SESSION_USER_CACHE_MS (src/users/users.service.ts), without a new sign-in.
  it('makes an existing account an admin, effective within seconds without signing in again', async () => {
    const { agent, email } = await signUp();
    await agent.get('/api/admin/route-rules').expect(403);
    const result = await promote('promote', email);
    expect(result).toEqual({ code: 0, output: expect.stringContaining(`${email} is now an admin.`) });
    await settlesTo(async () => (await agent.get('/api/admin/route-rules')).status, 200, SESSION_USER_CACHE_MS + 1_000);
    const mongo = await MongoClient.connect(process.env.HITSCOPE_E2E_MONGODB_URI!);
    try {
      expect((await mongo.db().collection('users').findOne({ email }))?.role).toBe('admin');
    } finally {
      await mongo.close();
    }
  });

  it('explains an unknown account and a missing argument', async () => {
    expect(await promote('promote', 'nobody-at-all@example.test')).toEqual({
      code: 1,
      output: expect.stringContaining('No account with the e-mail nobody-at-all@example.test'),
    });
    expect(await promote()).toEqual({ code: 2, output: expect.stringContaining('Usage: npm run promote -- <email>') });
  });
});
