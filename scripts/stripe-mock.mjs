#!/usr/bin/env node
// stripe-mock (github.com/stripe/stripe-mock) for the test suites: Stripe's own OpenAPI-driven mock
// of its API, so that every call the billing module makes is checked against the real request schema.
// Built once with `go install` into .cache/stripe-mock/<version>/ (like the embedded database
// launcher) and started on loopback with a free port.
//
//   node scripts/stripe-mock.mjs build   builds it when missing (CI runs this before the tests)
//   node scripts/stripe-mock.mjs start   starts it in the foreground and prints its URL
//   node scripts/stripe-mock.mjs dev     (`npm run stripe:dev`) starts it and prints the variables
//                                        that point `npm start` at it, to try payments by hand
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Pinned: a newer stripe-mock bundles a newer API spec, which is an upgrade to make on purpose. */
export const STRIPE_MOCK_VERSION = 'v0.203.0';
export const STRIPE_MOCK_BINARY = join(root, '.cache', 'stripe-mock', STRIPE_MOCK_VERSION, 'stripe-mock');

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Builds the pinned version when it is not in the cache yet (about 80 s cold on two cores). */
export async function ensureStripeMock(log = console.log) {
  if (existsSync(STRIPE_MOCK_BINARY)) return STRIPE_MOCK_BINARY;
  log(`Building stripe-mock ${STRIPE_MOCK_VERSION} (first run only; about a minute and a half)…`);
  const started = Date.now();
  // A directory of its own per attempt, renamed into place: concurrent builders never see half a file.
  const partial = `${dirname(STRIPE_MOCK_BINARY)}.${process.pid}.partial`;
  await mkdir(partial, { recursive: true });
  try {
    const result = await run('go', ['install', `github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}`], {
      GOBIN: partial,
      GOFLAGS: [process.env.GOFLAGS, '-buildvcs=false'].filter(Boolean).join(' '),
    });
    if (result.code !== 0) throw new Error(`go install of stripe-mock failed:\n${result.output.slice(-4000)}`);
    await mkdir(dirname(dirname(STRIPE_MOCK_BINARY)), { recursive: true });
    if (!existsSync(STRIPE_MOCK_BINARY)) await rename(partial, dirname(STRIPE_MOCK_BINARY)).catch(() => undefined);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  if (!existsSync(STRIPE_MOCK_BINARY)) throw new Error('stripe-mock was built but is not where it should be');
  log(`stripe-mock built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return STRIPE_MOCK_BINARY;
}

export { freePort };

/**
 * Starts stripe-mock on 127.0.0.1 only. Both addresses are given on purpose: with only
 * `-http-addr`, stripe-mock still opens HTTPS on every interface (`[::]:12112`).
 */
export async function startStripeMock(log = console.log) {
  const binary = await ensureStripeMock(log);
  for (let attempt = 1; ; attempt += 1) {
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const child = spawn(binary, ['-http-addr', `127.0.0.1:${httpPort}`, '-https-addr', `127.0.0.1:${httpsPort}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    const url = `http://127.0.0.1:${httpPort}`;
    const deadline = Date.now() + 15_000;
    let ready = false;
    while (child.exitCode === null && Date.now() < deadline) {
      try {
        const response = await fetch(`${url}/v1/customers/cus_ready`, { headers: { authorization: 'Bearer sk_test_ready' } });
        if (response.ok) {
          ready = true;
          break;
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (ready) {
      return {
        url,
        pid: child.pid,
        stop: () =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    child.kill('SIGKILL');
    // A port taken between choosing it and binding it: try other ones.
    if (attempt >= 3) throw new Error(`stripe-mock did not start:\n${stderr}`);
  }
}

/**
 * What to set for `npm start` to take payments against stripe-mock. Any `sk_test_` key works there;
 * the webhook secret is made up here, and is the one to sign test events with (stripe-mock sends no
 * webhooks: test/support/stripe-events.ts shows how the suites sign theirs).
 */
export function devInstructions(url) {
  const variables = {
    STRIPE_SECRET_KEY: 'sk_test_stripemock1234567890',
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`,
    STRIPE_API_BASE: url,
  };
  return [
    '',
    'Start the app against it from another terminal:',
    '',
    `  ${Object.entries(variables)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')} npm start`,
    '',
    'or put these lines in its environment:',
    '',
    ...Object.entries(variables).map(([name, value]) => `${name}=${value}`),
    '',
    'Checkout, the billing portal and subscription changes then answer from stripe-mock with its fixtures;',
    'no money moves and no webhook arrives by itself (see docs/licensing.md, "Trying payments by hand").',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const command = process.argv[2];
  if (command === 'build') {
    console.log(await ensureStripeMock());
  } else if (command === 'start' || command === 'dev') {
    const mock = await startStripeMock();
    console.log(`stripe-mock listening at ${mock.url} (pid ${mock.pid}, loopback only); Ctrl-C stops it`);
    if (command === 'dev') console.log(devInstructions(mock.url));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => mock.stop().then(() => process.exit(0)));
  } else {
    console.error('usage: node scripts/stripe-mock.mjs build|start|dev');
    process.exit(2);
  }
}
