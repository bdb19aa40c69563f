/**
 * `npm run stripe:dev`: stripe-mock on loopback for trying payments by hand, with the variables that
 * point `npm start` at it printed; they must be a configuration the app accepts.
 */
import { spawn } from 'node:child_process';
import { loadConfig } from '../../src/config/app-config.js';
import { PROJECT_ROOT } from '../../src/common/project-root.js';

it('starts stripe-mock on 127.0.0.1, prints variables the app accepts, and stops on SIGTERM', async () => {
  const child = spawn('npm', ['run', '--silent', 'stripe:dev'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (const deadline = Date.now() + 30_000; !/^STRIPE_API_BASE=/m.test(output);) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no variables printed:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const variables = Object.fromEntries([...output.matchAll(/^(STRIPE_[A-Z_]+)=(\S+)$/gm)].map((match) => [match[1], match[2]]));
    expect(Object.keys(variables).sort()).toEqual(['STRIPE_API_BASE', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(output).toMatch(/STRIPE_SECRET_KEY=\S+ STRIPE_WEBHOOK_SECRET=\S+ STRIPE_API_BASE=\S+ npm start/);
    expect(variables.STRIPE_API_BASE).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const config = loadConfig(variables);
    expect(config.stripe).toMatchObject({ secretKey: variables.STRIPE_SECRET_KEY, webhookSecrets: [variables.STRIPE_WEBHOOK_SECRET] });
    const customer = await fetch(`${variables.STRIPE_API_BASE}/v1/customers/cus_try`, {
      headers: { authorization: `Bearer ${variables.STRIPE_SECRET_KEY}` },
    });
    expect(customer.status).toBe(200);
  } finally {
    // The whole group: npm, its shell and the script (which stops stripe-mock).
    process.kill(-child.pid!, 'SIGTERM');
  }
  await exited;
}, 60_000);
