#!/usr/bin/env node
// The server of the browser suite (Playwright's `webServer` command): the production build with a
// database of its own for this run. Without MONGODB_URI the app starts the embedded FerretDB in a
// fresh temporary folder (removed on exit); with MONGODB_URI it uses a database name unique to this
// run on that server. SIGTERM/SIGINT are forwarded to the app, and this process exits with it.
// The database URI is written to browserServerInfoPath(port) so tests can read what the app stored
// (the mail outbox: this server has no SMTP).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, unwatchFile, watchFile, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const main = join(root, 'dist/app/src/main.js');
const buildManifestPath = join(root, 'dist/build-manifest.json');
const requiredBuildFiles = [
  main,
  buildManifestPath,
  join(root, 'dist/server/entry-server.js'),
  join(root, 'dist/client/client/index.html'),
];

export const BROWSER_ADMIN_EMAIL = 'admin@hitscope.test';
/** `{ mongodbUri, billingUrl, stripeMockUrl, stripeWebhookSecret }` of the running browser server on `port` (test/browser/fixtures.ts). */
export const browserServerInfoPath = (port) => join(tmpdir(), `hitscope-browser-server-${port}.json`);
const port = Number(process.env.HITSCOPE_BROWSER_PORT ?? 3987);
const host = '127.0.0.1';

function log(message) {
  console.log(`[browser-server] ${message}`);
}

const missing = requiredBuildFiles.filter((file) => !existsSync(file));
if (missing.length) {
  console.error(
    `[browser-server] No production build in dist/ (missing ${missing.map((file) => file.slice(root.length)).join(', ')}).\n` +
      '[browser-server] The browser suite runs against the production build: run `npm run build` first (`npm test` does).',
  );
  process.exit(1);
}
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`[browser-server] HITSCOPE_BROWSER_PORT must be a port number (got "${process.env.HITSCOPE_BROWSER_PORT}")`);
  process.exit(1);
}

const env = {
  ...process.env,
  NODE_ENV: 'test',
  PORT: String(port),
  HOST: host,
  PUBLIC_URL: `http://${host}:${port}`,
  ADMIN_EMAILS: BROWSER_ADMIN_EMAIL,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // Many accounts sign up from 127.0.0.1 in this suite; the limits are tested at real values in test/e2e.
  RATE_LIMIT_MULTIPLIER: '1000',
  // As on a newcomer's fresh site: the bundled browser extension is published on first start (by
  // both instances at once, test/extension/release.spec.ts checks what they published).
  PUBLISH_BUNDLED_BUILDS: 'on',
};

let dataDir = null;
let database = null;
if (process.env.MONGODB_URI) {
  const url = new URL(process.env.MONGODB_URI);
  url.pathname = `/hitscope_browser_${Date.now().toString(36)}`;
  env.MONGODB_URI = url.toString();
  log(`using MONGODB_URI with database ${url.pathname.slice(1)}`);
} else {
  // Started here rather than by the app, so that its URI is known to the tests. It stops with this
  // process in every case (the launcher watches the stdin pipe this process holds).
  dataDir = await mkdtemp(join(tmpdir(), 'hitscope-browser-'));
  const { startEmbeddedDatabase } = await import(join(root, 'dist/app/src/database/embedded-database.js'));
  database = await startEmbeddedDatabase({ dataDir, log });
  const url = new URL(database.uri);
  url.pathname = '/hitscope_browser';
  env.MONGODB_URI = url.toString();
  log(`embedded database in ${dataDir} at ${database.uri}`);
}

// A second instance of the app on the same database with billing configured against stripe-mock on
// loopback (as the Jest suites run it), for the screens that only exist when Stripe is there. The
// first instance stays unconfigured: that is what a site without Stripe shows.
const { freePort, startStripeMock } = await import(join(root, 'scripts/stripe-mock.mjs'));
const stripeMock = await startStripeMock(log);
// The billing instance mails through a real SMTP server (the buyer's mails arrive there).
const { smtpMailboxPath, startSmtpMailbox } = await import('./smtp-mailbox.mjs');
const mailbox = await startSmtpMailbox(smtpMailboxPath(port));
const billingPort = await freePort();
const billingEnv = {
  ...env,
  PORT: String(billingPort),
  PUBLIC_URL: `http://${host}:${billingPort}`,
  STRIPE_SECRET_KEY: 'sk_test_browsersuite123',
  STRIPE_WEBHOOK_SECRET: 'whsec_browsersuite12345678',
  STRIPE_API_BASE: stripeMock.url,
  SMTP_URL: mailbox.url,
};

const infoPath = browserServerInfoPath(port);
writeFileSync(
  infoPath,
  JSON.stringify({
    mongodbUri: env.MONGODB_URI,
    pid: process.pid,
    billingUrl: billingEnv.PUBLIC_URL,
    stripeMockUrl: stripeMock.url,
    // What the tests sign the billing instance's webhooks with (as Stripe would).
    stripeWebhookSecret: billingEnv.STRIPE_WEBHOOK_SECRET,
  }),
);

function cleanUp() {
  rmSync(infoPath, { force: true });
  if (!dataDir) return;
  try {
    rmSync(dataDir, { recursive: true, force: true });
  } catch (error) {
    console.error(`[browser-server] could not remove ${dataDir}: ${error.message}`);
  }
  dataDir = null;
}

const readBuildId = () => {
  try {
    return JSON.parse(readFileSync(buildManifestPath, 'utf8')).id;
  } catch {
    return null;
  }
};
const buildId = readBuildId();

const app = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
log(`app pid ${app.pid} on http://${host}:${port}, build ${buildId}`);
const billingApp = spawn(process.execPath, [main], { cwd: root, env: billingEnv, stdio: ['ignore', 'inherit', 'inherit'] });
log(`billing app pid ${billingApp.pid} on ${billingEnv.PUBLIC_URL} with stripe-mock at ${stripeMock.url}`);
const running = (child) => child.exitCode === null && child.signalCode === null;

// The app reads its HTML template once at start-up, and a new build (vite empties dist/client
// first, then writes new hashed assets and finally dist/build-manifest.json) removes the assets that
// template names: every page would then fail to hydrate. Stop at once with the reason instead of
// letting each test time out.
const templatePath = join(root, 'dist/client/client/index.html');
let rebuilt = false;
function onRebuild(detail) {
  if (rebuilt) return;
  rebuilt = true;
  console.error(
    `[browser-server] dist/ was rebuilt while the suite was running (${detail}); the running server no ` +
      'longer matches its assets. Stopping it: build again, then run the suite again.',
  );
  if (app.exitCode === null && app.signalCode === null) app.kill('SIGTERM');
}
watchFile(buildManifestPath, { interval: 1000 }, () => {
  const current = readBuildId();
  if (current !== null && current !== buildId) onRebuild(`build ${buildId} → ${current}`);
});
watchFile(templatePath, { interval: 1000 }, (now, before) => {
  if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino) onRebuild('dist/client was replaced');
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    if (running(billingApp)) billingApp.kill(signal);
    if (running(app)) app.kill(signal);
  });
}
app.on('error', (error) => {
  console.error(`[browser-server] cannot start the app: ${error.message}`);
  cleanUp();
  process.exit(1);
});
app.on('exit', async (code, signal) => {
  unwatchFile(buildManifestPath);
  unwatchFile(templatePath);
  if (running(billingApp)) {
    const exited = new Promise((resolve) => billingApp.once('exit', resolve));
    billingApp.kill('SIGTERM');
    await exited;
  }
  await stripeMock.stop();
  await mailbox.stop();
  rmSync(smtpMailboxPath(port), { force: true });
  await database?.stop().catch((error) => console.error(`[browser-server] could not stop the database: ${error.message}`));
  cleanUp();
  process.exit(rebuilt ? 1 : (code ?? (signal ? 0 : 1)));
});
// Last resort (e.g. an uncaught error here): never leave the temporary database behind.
process.on('exit', () => {
  if (running(app)) app.kill('SIGKILL');
  if (running(billingApp)) billingApp.kill('SIGKILL');
  try {
    process.kill(stripeMock.pid, 'SIGKILL');
  } catch {
    // already stopped
  }
  cleanUp();
});
