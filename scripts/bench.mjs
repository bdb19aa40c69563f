#!/usr/bin/env node
// `npm run bench`: measures and prints numbers, with no pass/fail thresholds.
//
//   1. Embedded database cold start: spawn of the FerretDB launcher until it answers `ping`, with a
//      fresh data folder each time (3 runs and their median), through the same compiled module the
//      app uses. The one-time Go build is timed separately when it happens.
//   2. Server-side rendering throughput: the production app (`node dist/app/src/main.js`) against a
//      baseline `node:http` server that answers a static body of the same byte length as the
//      rendered home page, both child processes on the same Node, measured in the same run with
//      autocannon; plus a small JSON API call and the liveness probe. Besides requests/s and
//      latency it reports each server's CPU time per request (Linux /proc), which stays meaningful
//      when other work on the machine makes the request rates noisy.
//   3. Sign-in throughput at constant rates, with /health/live probed meanwhile.
//   4. The database connection: 200 concurrent `$inc` on one document through a pool and through
//      one connection; signed-in API latency at 32 connections with the app's one connection to
//      FerretDB and with the driver's default pool (100); and API latency while a long operation
//      (a 16 MB GridFS download, an 8 MB profile export) runs, on both.
//
// Only loopback addresses; every port is picked free by the OS; every child is killed on exit; the
// whole run is bounded in time. BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS
// (default 10) tune the load runs; BENCH_ONLY=http, database, memory, licensing, tools (which includes
// the browser extension's capture cost and panel, scripts/bench/browser-extension.mjs), webhooks,
// releases, analytics or campaigns runs one section (BENCH_ONLY=scale runs the scale section, which only
// runs on its own: scripts/bench/support/scale.mjs); BENCH_MEMORY_SECONDS (60) is the length of the memory run,
// BENCH_WEBHOOK_CUSTOMERS (50, six events each) the size of the webhook run and BENCH_RELEASE_MIB
// (64) the size of the release build, BENCH_CAMPAIGN_RECIPIENTS (10 000) that of the campaign;
// BENCH_PROFILE=<folder> makes each app process write a V8 CPU profile there, and each embedded
// database the benchmark starts a Go CPU profile (HITSCOPE_DB_CPUPROFILE).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchScale } from './bench/support/scale.mjs';
import { freePort } from './free-port.mjs';
import { insertConfirmedSubscribers } from './fixtures/confirmed-subscribers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const COLD_STARTS = 3;
const DURATION_S = positiveInt('BENCH_DURATION', 10);
const WARMUP_S = 2;
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
// Generous: it covers a first-time production build and a first-time Go build of the database. The
// scale section seeds 1.7 million documents per engine and measures slow requests before they are fixed.
const HARD_LIMIT_MS = (process.env.BENCH_ONLY === 'scale' ? 120 : 20) * 60_000;

const children = new Set();
const databases = new Set();
/** Other helpers with a stop() (stripe-mock), stopped on exit like the databases. */
const services = new Set();
const tempDirs = [];

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive integer (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const heading = (text) => console.log(`\n== ${text} ${'='.repeat(Math.max(3, 76 - text.length))}`);
const ms = (value) => `${value.toFixed(0)} ms`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));

// CPU time used by a process and its descendants (Linux /proc), in milliseconds. It tells the cost
// per request even when other work on the machine makes requests/s noisy; null where unavailable.
const CLOCK_TICKS = (() => {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(result.stdout?.trim()) || 100;
})();
function processTree(pid) {
  const pids = [pid];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (children) for (const child of children.split(/\s+/)) pids.push(...processTree(Number(child)));
    }
  } catch {
    // the process is gone, or this is not Linux
  }
  return pids;
}
/** CPU time (ms) of a process and its children; of several such trees when given several pids. */
function cpuMs(pid) {
  if (Array.isArray(pid)) {
    const parts = pid.map(cpuMs);
    return parts.includes(null) ? null : parts.reduce((sum, part) => sum + part, 0);
  }
  if (process.platform !== 'linux' || !pid) return null;
  let ticks = 0;
  for (const each of processTree(pid)) {
    try {
      // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ').pop().split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      if (each === pid) return null;
    }
  }
  return (ticks / CLOCK_TICKS) * 1000;
}

async function tempDir(prefix) {
  const dir = await mkdtemp(join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** A child process whose output is kept (last 8 kB) for the error report, and killed on exit. */
function startChild(label, args, options) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  child.label = label;
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function stopChild(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...databases, ...services].map((each) => each.stop().catch(() => undefined)));
    await Promise.all([...children].map((child) => stopChild(child)));
    await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }).catch(() => undefined)));
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the benchmark`);
    cleanup().finally(() => process.exit(130));
  });
}
setTimeout(() => {
  console.error(`\nThe benchmark did not finish within ${HARD_LIMIT_MS / 60_000} minutes: stopping it.`);
  cleanup().finally(() => process.exit(1));
}, HARD_LIMIT_MS).unref();

/** GET without Accept-Encoding (as autocannon sends it), so the body is the uncompressed page. */
function get(url, timeoutMs = 5000, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { timeout: timeoutMs, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

function ensureProductionBuild() {
  const required = [
    'dist/build-manifest.json',
    'dist/server/entry-server.js',
    'dist/app/src/main.js',
    'dist/app/src/database/embedded-database.js',
  ];
  if (required.every((file) => existsSync(join(root, file)))) return;
  heading('Production build');
  console.log('No production build in dist/: running `node scripts/build.mjs` first…');
  const result = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
    timeout: 10 * 60_000,
  });
  if (result.status !== 0) throw new Error('The production build failed');
}

async function benchEmbeddedDatabase() {
  heading('Embedded database (FerretDB 1.24, SQLite) cold start');
  const launcher = await import(pathToFileURL(join(root, 'dist/app/src/database/embedded-database.js')).href);

  let binary = process.env.EMBEDDED_DB_BINARY?.trim() || null;
  if (binary) {
    console.log(`Binary: ${binary} (EMBEDDED_DB_BINARY)`);
  } else {
    const cached = await launcher.embeddedDatabaseBinaryPath();
    const needsBuild = !existsSync(cached);
    const started = performance.now();
    binary = await launcher.ensureEmbeddedDatabaseBinary((message) => console.log(`  ${message}`));
    console.log(
      needsBuild
        ? `One-time build of the launcher (go build): ${((performance.now() - started) / 1000).toFixed(1)} s`
        : `Binary: cached at ${binary} (no build needed)`,
    );
  }

  const times = [];
  for (let run = 1; run <= COLD_STARTS; run += 1) {
    const dataDir = await tempDir('hitscope-bench-db-');
    const started = performance.now();
    const database = await launcher.startEmbeddedDatabase({ dataDir, binary, log: () => undefined, startTimeoutMs: 30_000 });
    const elapsed = performance.now() - started;
    databases.add(database);
    await database.stop();
    databases.delete(database);
    times.push(elapsed);
    console.log(`Cold start ${run}/${COLD_STARTS} (spawn → answers ping, fresh data dir): ${ms(elapsed)}`);
  }
  const result = { median: median(times), times };
  console.log(`Median: ${ms(result.median)}`);
  return { ...result, binary };
}

/**
 * A fresh embedded database in a throw-away folder (stopped on exit), with the URI of database
 * `hitscope_bench_<name>` on it.
 */
async function embeddedDatabase(binary, name) {
  const launcher = await import(pathToFileURL(join(root, 'dist/app/src/database/embedded-database.js')).href);
  // BENCH_PROFILE: the database writes a Go CPU profile there too (`go tool pprof -top <file>`).
  if (process.env.BENCH_PROFILE) {
    await mkdir(process.env.BENCH_PROFILE, { recursive: true });
    process.env.HITSCOPE_DB_CPUPROFILE = join(process.env.BENCH_PROFILE, `database-${name}-${Date.now()}.pprof`);
  }
  const database = await launcher
    .startEmbeddedDatabase({
      dataDir: await tempDir(`hitscope-bench-${name}-`),
      binary,
      log: () => undefined,
    })
    .finally(() => delete process.env.HITSCOPE_DB_CPUPROFILE);
  databases.add(database);
  return { database, uri: `${database.uri.replace(/\/$/, '')}/hitscope_bench_${name}` };
}

async function startApp(binary, extraEnv = {}) {
  const port = await freePort();
  const env = {
    ...process.env,
    ...extraEnv,
    NODE_ENV: 'production',
    HOST,
    PORT: String(port),
    PUBLIC_URL: `http://${HOST}:${port}`,
    DATA_DIR: await tempDir('hitscope-bench-app-'),
    EMBEDDED_DB_BINARY: binary,
    LOG_LEVEL: 'warn',
  };
  // Always an embedded database in a throw-away folder (the app's own, or one the benchmark started
  // and passes in extraEnv): the benchmark never touches the database of the environment.
  if (extraEnv.MONGODB_URI) env.MONGODB_URI = extraEnv.MONGODB_URI;
  else delete env.MONGODB_URI;
  const started = performance.now();
  // BENCH_PROFILE=<folder>: each app process writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = startChild('app', [...profile, '--enable-source-maps', 'dist/app/src/main.js'], { env });
  const baseUrl = `http://${HOST}:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited with code ${child.exitCode} during start-up:\n${child.output}`);
    const ready = await get(`${baseUrl}/health/ready`, 2000).catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`The app was not ready within 60 s:\n${child.output}`);
    await sleep(100);
  }
  return { child, baseUrl, startMs: performance.now() - started };
}

// The baseline answers every request with the same static body: what Node's HTTP stack alone costs.
const BASELINE_SOURCE = `
const http = require('node:http');
const body = Buffer.alloc(Number(process.env.BENCH_BODY_BYTES), 'a');
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache' });
  response.end(body);
});
server.listen(0, '${HOST}', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function load(url, durationS, headers = {}) {
  const { default: autocannon } = await import('autocannon');
  const run = autocannon({ url, connections: CONNECTIONS, duration: durationS, timeout: 10, headers });
  const timer = setTimeout(() => run.stop?.(), (durationS + 30) * 1000);
  try {
    return await run;
  } finally {
    clearTimeout(timer);
  }
}

/** `pid`: the server's process, or [app, database] to report the database's share too. */
async function measure(label, url, pid, headers = {}) {
  await load(url, WARMUP_S, headers);
  const cpuBefore = cpuMs(pid);
  const databaseBefore = Array.isArray(pid) ? cpuMs(pid.slice(1)) : null;
  const result = await load(url, DURATION_S, headers);
  const cpuAfter = cpuMs(pid);
  const databaseAfter = Array.isArray(pid) ? cpuMs(pid.slice(1)) : null;
  const perRequest = (before, after) =>
    before === null || after === null || !result.requests.total ? null : ((after - before) * 1000) / result.requests.total;
  return {
    cpuPerRequestUs: perRequest(cpuBefore, cpuAfter),
    databaseCpuPerRequestUs: perRequest(databaseBefore, databaseAfter),
    label,
    rps: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mbps: result.throughput.mean / 1_000_000,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function printTable(rows, baseline = null) {
  const columns = [
    ['target', (row) => row.label, 'left'],
    ['req/s (mean)', (row) => row.rps.toFixed(0)],
    ['p50 ms', (row) => row.p50.toFixed(1)],
    ['p99 ms', (row) => row.p99.toFixed(1)],
    ['MB/s', (row) => row.mbps.toFixed(1)],
    ['server CPU µs/req', (row) => (row.cpuPerRequestUs === null ? 'n/a' : row.cpuPerRequestUs.toFixed(0))],
    ...(rows.some((row) => row.databaseCpuPerRequestUs != null)
      ? [['of which database', (row) => (row.databaseCpuPerRequestUs == null ? '' : row.databaseCpuPerRequestUs.toFixed(0))]]
      : []),
    ...(baseline ? [['ratio to static', (row) => (row.rps / baseline.rps).toFixed(3)]] : []),
    ['requests', (row) => String(row.total)],
    ['non-2xx', (row) => String(row.non2xx)],
    ['errors', (row) => String(row.errors)],
  ];
  const cells = rows.map((row) => columns.map(([, cell]) => cell(row)));
  const widths = columns.map(([title], index) => Math.max(title.length, ...cells.map((line) => line[index].length)));
  const format = (line) =>
    line.map((cell, index) => (columns[index][2] === 'left' ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join('  ');
  console.log(format(columns.map(([title]) => title)));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of cells) console.log(format(line));
}

// The same page rendered by the same server entry (dist/server/entry-server.js) and assembled into
// the same template, in a bare node:http server with fixed data: what the React render costs
// without Nest, Express, the session and the database.
const BARE_RENDER_SOURCE = `
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
const root = process.env.BENCH_ROOT;
const { serverEntry } = await import(root + '/dist/server/entry-server.js');
const { assembleDocument } = await import(root + '/dist/app/src/ssr/html-document.js');
const template = readFileSync(root + '/dist/client/client/index.html', 'utf8');
const fixed = JSON.parse(process.env.BENCH_PAGE_DATA);
const data = {
  me: async () => null,
  routeRule: async () => null,
  authProviders: async () => ({ oidc: null }),
  catalogue: async () => fixed.catalogue,
  billingStatus: async () => fixed.billingStatus,
  siteSettings: async () => fixed.siteSettings,
};
const server = http.createServer(async (request, response) => {
  const nonce = randomBytes(16).toString('base64');
  const result = await serverEntry.render({ url: request.url, publicUrl: process.env.BENCH_PUBLIC_URL, nonce, colorMode: 'system', data });
  const html = assembleDocument(template, { ...result, preloadLinks: '', nonce, colorMode: 'system' });
  response.writeHead(result.status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
  response.end(html);
});
server.listen(0, '${HOST}', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** Starts a small server from source that prints `{"port":…}` first. */
async function startScriptServer(label, args, env) {
  const child = startChild(label, args, { env: { ...process.env, ...env } });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The ${label} server did not start:\n${child.output}`)), 20_000);
    child.stdout.once('data', (chunk) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(chunk.toString().split('\n')[0]).port);
      } catch {
        reject(new Error(`Unexpected output from the ${label} server: ${chunk}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`The ${label} server exited with code ${code}:\n${child.output}`)));
  });
  return { child, baseUrl: `http://${HOST}:${port}` };
}

const startBaseline = (bytes) => startScriptServer('baseline', ['-e', BASELINE_SOURCE], { BENCH_BODY_BYTES: String(bytes) });

async function startBareRender(appUrl) {
  const json = async (path) => (await fetch(`${appUrl}${path}`)).json();
  const pageData = {
    catalogue: await json('/api/catalogue'),
    billingStatus: await json('/api/billing/status'),
    siteSettings: await json('/api/site-settings'),
  };
  return startScriptServer('bare render', ['--input-type=module', '-e', BARE_RENDER_SOURCE], {
    NODE_ENV: 'production',
    BENCH_ROOT: root,
    BENCH_PUBLIC_URL: appUrl,
    BENCH_PAGE_DATA: JSON.stringify(pageData),
  });
}

/**
 * The page-serving table of issue 14, in one run: a static body of the home page's size, the same
 * page from a bare render server, Hitscope's `/` uncached (a second app with PAGE_CACHE_MB=0) and
 * from the page cache, the lounge signed in, /health/live and /api/auth/me. CPU per request and
 * the ratio of requests/s to the static baseline.
 */
async function benchHttp(binary) {
  heading('HTTP: pages and the API floor against a static node:http baseline');
  // The app's database is started here so that the signed-in rows count its CPU with the app's.
  const { database, uri } = await embeddedDatabase(binary, 'http');
  const app = await startApp(binary, { MONGODB_URI: uri });
  const appPids = [app.child.pid, database.pid];
  console.log(`Production app ready in ${ms(app.startMs)} (spawn → /health/ready 200, embedded database included)`);

  const home = await get(`${app.baseUrl}/`);
  if (home.status !== 200) throw new Error(`GET / answered ${home.status}; expected 200`);
  const bytes = home.body.length;
  const baseline = await startBaseline(bytes);
  const bare = await startBareRender(app.baseUrl);
  const bareBytes = (await get(`${bare.baseUrl}/`)).body.length;
  const { cookie } = await signedInCookies(app.baseUrl, 'bench-pages@example.test', uri);
  const lounge = await get(`${app.baseUrl}/dashboard/lounge`, 5000, { cookie });
  if (lounge.status !== 200) throw new Error(`GET /dashboard/lounge signed in answered ${lounge.status}; expected 200`);
  console.log(
    `Home page: ${bytes} bytes of HTML (uncompressed); baseline body ${bytes} bytes; bare render ${bareBytes} bytes; lounge ${lounge.body.length} bytes`,
  );
  console.log(
    `Load: autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s, loopback, keep-alive, no Accept-Encoding`,
  );
  console.log('');

  const rows = [];
  rows.push(await measure(`static bytes, node:http (${bytes} B)`, `${baseline.baseUrl}/`, baseline.child.pid));
  rows.push(await measure('bare serverEntry.render, node:http', `${bare.baseUrl}/`, bare.child.pid));
  await stopChild(bare.child);
  rows.push(await measure('Hitscope / from the page cache', `${app.baseUrl}/`, appPids));
  rows.push(await measure('Hitscope /dashboard/lounge, signed in', `${app.baseUrl}/dashboard/lounge`, appPids, { cookie }));
  rows.push(await measure('Hitscope /api/auth/me, signed in', `${app.baseUrl}/api/auth/me`, appPids, { cookie }));
  rows.push(await measure('Hitscope /health/live', `${app.baseUrl}/health/live`, appPids));
  await stopChild(app.child);
  const uncached = await startApp(binary, { MONGODB_URI: uri, PAGE_CACHE_MB: '0' });
  rows.splice(2, 0, await measure('Hitscope / rendered (PAGE_CACHE_MB=0)', `${uncached.baseUrl}/`, [uncached.child.pid, database.pid]));
  await stopChild(uncached.child);
  await stopChild(baseline.child);
  printTable(rows, rows[0]);

  const [base, , cold, cached] = rows;
  console.log('');
  console.log(
    `Page cache: ${(cached.rps / cold.rps).toFixed(1)}x the requests/s of a render; ${(cached.rps / base.rps).toFixed(2)} of the static baseline (goal ≥ 0.5)`,
  );
  console.log(
    `Load average after the run: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  return { rows, ratio: cached.rps / base.rps, bytes, appStartMs: app.startMs };
}

/** Times GET /health/live every 100 ms until `stop()`; answers the latencies seen. */
function probeLiveness(baseUrl) {
  const latencies = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const answer = await get(`${baseUrl}/health/live`, 5000).catch(() => null);
      latencies.push(answer?.status === 200 ? performance.now() - started : Number.POSITIVE_INFINITY);
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      return { samples: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
    },
  };
}

async function benchLogin(binary) {
  heading('Sign-in throughput at a constant rate (argon2id m=19 MiB, t=2, p=1), with /health/live probed meanwhile');
  // The abuse limits would answer 429 long before the CPU is the limit: lift them for this run only.
  const { uri } = await embeddedDatabase(binary, 'login');
  const app = await startApp(binary, { MONGODB_URI: uri, RATE_LIMIT_MULTIPLIER: '1000000' });
  const credentials = { email: 'bench@example.test', password: 'benchmark passphrase here' };
  await signedInCookies(app.baseUrl, credentials.email, uri);
  // A browser that is not signed in: its CSRF cookie and token, sent with every sign-in of the run.
  const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const { token } = await csrf.json();

  const idle = probeLiveness(app.baseUrl);
  await sleep(2000);
  const idleLive = await idle.stop();
  console.log(
    `/health/live with no load: p50 ${idleLive.p50.toFixed(1)} ms, p99 ${idleLive.p99.toFixed(1)} ms (${idleLive.samples} probes)`,
  );
  console.log('');

  const { default: autocannon } = await import('autocannon');
  const rows = [];
  for (const rate of [10, 20, 40]) {
    const probe = probeLiveness(app.baseUrl);
    const result = await autocannon({
      url: `${app.baseUrl}/api/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      body: JSON.stringify(credentials),
      connections: 20,
      overallRate: rate,
      duration: DURATION_S,
      timeout: 10,
    });
    const live = await probe.stop();
    rows.push({ rate, result, live });
  }
  const header = ['target req/s', 'achieved req/s', 'login p50', 'login p99', 'non-2xx', '/health/live p50', '/health/live p99'];
  console.log(header.join(' | '));
  for (const { rate, result, live } of rows) {
    console.log(
      [
        String(rate),
        result.requests.average.toFixed(1),
        `${result.latency.p50} ms`,
        `${result.latency.p99} ms`,
        String(result.non2xx + result.errors),
        `${live.p50.toFixed(1)} ms`,
        `${live.p99.toFixed(1)} ms`,
      ].join(' | '),
    );
  }
  await stopChild(app.child);
  return rows;
}

/** Registers a user on `baseUrl` and answers the cookies of its session. */
/**
 * Registers `email` as a person does: the form, then the link mailed to the address (read from the
 * app's outbox in `databaseUri`: the benchmark's apps have no SMTP), followed with the browser's
 * cookies, which signs in. Answers the cookie header of that signed-in browser.
 */
async function signedInCookies(baseUrl, email, databaseUri) {
  const jar = new Map();
  const keep = (response) => {
    for (const value of response.headers.getSetCookie()) {
      const [pair] = value.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { token } = await csrf.json();
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: cookie() },
    body: JSON.stringify({ name: 'Bench', email, password: 'benchmark passphrase here' }),
  });
  if (registered.status !== 202) throw new Error(`Registering ${email} answered ${registered.status}`);
  keep(registered);
  const { MongoClient } = await import('mongodb');
  const client = await MongoClient.connect(databaseUri, { maxPoolSize: 1 });
  const message = await client
    .db()
    .collection('mail_outbox')
    .findOne({ to: email }, { sort: { createdAt: -1 } });
  await client.close();
  const link = /\/api\/auth\/verify-email\?token=[\w-]+/.exec(message?.text ?? '')?.[0];
  if (!link) throw new Error(`No confirmation link was mailed to ${email}`);
  const confirmed = await fetch(`${baseUrl}${link}`, { headers: { cookie: cookie() }, redirect: 'manual' });
  keep(confirmed);
  if (!jar.has('hs_session')) throw new Error(`Following the link did not sign ${email} in (${confirmed.status})`);
  const me = await fetch(`${baseUrl}/api/auth/me`, { headers: { cookie: cookie() } });
  return { cookie: cookie(), userId: (await me.json()).id };
}

/** GET that reads the whole body; answers the status and the time to the last byte. */
async function timedGet(url, headers = {}) {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
function latencySummary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] };
}
const formatLatency = (summary) => `${summary.p50.toFixed(1)} / ${summary.p99.toFixed(1)} / ${summary.max.toFixed(0)} ms`;

/**
 * Probes `GET /api/auth/me` (signed in) and `GET /health/ready` in turn, one request at a time with
 * 20 ms between them, for `seconds`, while `operation` (when given) runs back to back.
 */
async function latencyDuring(app, seconds, operation) {
  const deadline = performance.now() + seconds * 1000;
  const me = [];
  const ready = [];
  let failed = 0;
  const probes = (async () => {
    while (performance.now() < deadline) {
      const a = await timedGet(`${app.baseUrl}/api/auth/me`, { cookie: app.cookie });
      if (a.status === 200) me.push(a.ms);
      else failed += 1;
      const b = await timedGet(`${app.baseUrl}/health/ready`);
      if (b.status === 200) ready.push(b.ms);
      else failed += 1;
      await sleep(20);
    }
  })();
  const operations = [];
  const work = (async () => {
    if (!operation) return;
    while (performance.now() < deadline) {
      const result = await operation();
      if (result.status !== 200) throw new Error(`The long operation answered ${result.status}`);
      operations.push(result.ms);
    }
  })();
  await Promise.all([probes, work]);
  return { me: latencySummary(me), ready: latencySummary(ready), failed, operations };
}

async function benchDatabaseConnection(binary) {
  heading('Database connection: one connection to FerretDB vs a pool');
  const { GridFSBucket, MongoClient } = await import('mongodb');
  const launcher = await import(pathToFileURL(join(root, 'dist/app/src/database/embedded-database.js')).href);
  const database = await launcher.startEmbeddedDatabase({ dataDir: await tempDir('hitscope-bench-pool-'), binary, log: () => undefined });
  databases.add(database);
  const uriOf = (name, options = '') => `${database.uri.replace(/\/$/, '')}/${name}${options}`;

  console.log('200 concurrent $inc on one document, straight through the driver:');
  for (const maxPoolSize of [50, 1]) {
    const client = await MongoClient.connect(uriOf('hitscope_bench_inc'), { maxPoolSize });
    const counters = client.db().collection(`inc_pool_${maxPoolSize}`);
    await counters.insertOne({ _id: 'one', n: 0 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 200 }, () => counters.updateOne({ _id: 'one' }, { $inc: { n: 1 } })));
    const elapsed = performance.now() - started;
    const { n } = await counters.findOne({ _id: 'one' });
    console.log(`  maxPoolSize ${String(maxPoolSize).padStart(2)}: n = ${n} of 200, ${ms(elapsed)}`);
    await client.close();
  }

  // Two apps on this database: what the app chooses for FerretDB (one connection), and the
  // driver's default pool of 100, which the app keeps when the URI asks for it (with a warning).
  const apps = [
    { label: 'one connection', name: 'hitscope_bench_one', options: '' },
    { label: 'pool of 100', name: 'hitscope_bench_pool', options: '?maxPoolSize=100' },
  ];
  for (const app of apps) {
    Object.assign(app, await startApp(binary, { MONGODB_URI: uriOf(app.name, app.options) }));
    Object.assign(app, await signedInCookies(app.baseUrl, `bench-${app.name}@example.test`, uriOf(app.name)));
  }

  const connections = 32;
  console.log('');
  console.log(`GET /api/auth/me signed in, autocannon ${connections} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s, two rounds:`);
  const { default: autocannon } = await import('autocannon');
  const rows = [];
  for (const round of [1, 2]) {
    for (const app of apps) {
      const options = { url: `${app.baseUrl}/api/auth/me`, headers: { cookie: app.cookie }, connections, timeout: 10 };
      await autocannon({ ...options, duration: WARMUP_S });
      const cpuBefore = [cpuMs(app.child.pid), cpuMs(database.pid)];
      const result = await autocannon({ ...options, duration: DURATION_S });
      const cpuAfter = [cpuMs(app.child.pid), cpuMs(database.pid)];
      const perRequest = (index) =>
        cpuBefore[index] === null || cpuAfter[index] === null || !result.requests.total
          ? 'n/a'
          : (((cpuAfter[index] - cpuBefore[index]) * 1000) / result.requests.total).toFixed(0);
      rows.push([
        `${app.label} (round ${round})`,
        result.requests.mean.toFixed(0),
        `${result.latency.p50} ms`,
        `${result.latency.p99} ms`,
        `${perRequest(0)} / ${perRequest(1)}`,
        String(result.non2xx + result.errors + result.timeouts),
      ]);
    }
  }
  printRows(['app database connection', 'req/s', 'p50', 'p99', 'CPU µs/req app / db', 'failed'], rows);

  // The long operations: a 16 MB file in the avatars bucket (stored straight through GridFS, as the
  // app's storage does; uploads through the API stop at 1 MB), and a profile export of about 8 MB
  // (50 GA4 MP history entries near the request body limit, each with a long answer).
  const seed = await MongoClient.connect(uriOf(apps[0].name), { maxPoolSize: 1 });
  const bigFile = Buffer.alloc(16 * 1024 * 1024);
  for (let offset = 0; offset < bigFile.length; offset += 4) bigFile.writeUInt32LE((offset * 2654435761) >>> 0, offset);
  const history = (userId) =>
    Array.from({ length: 50 }, (_, index) => ({
      userId,
      createdAt: new Date(Date.now() - index * 1000),
      stream: 'web',
      query: { measurement_id: 'G-BENCH', api_secret: 'REDACTED' },
      bodyJson: JSON.stringify({ client_id: '1.2', events: [{ name: 'bench', params: { text: 'x'.repeat(95_000) } }] }),
      eventNames: ['bench'],
      debug: true,
      region: 'global',
      status: 200,
      ok: true,
      durationMs: 120,
      localMessagesJson: '[]',
      responseJson: JSON.stringify({ validationMessages: [{ description: 'y'.repeat(60_000) }] }),
      error: null,
    }));
  for (const app of apps) {
    const db = seed.db(app.name);
    const upload = new GridFSBucket(db, { bucketName: 'avatars' }).openUploadStream('bench-16mb', {
      metadata: { contentType: 'image/png', cacheControl: 'no-store' },
    });
    await new Promise((resolve, reject) => upload.once('finish', resolve).once('error', reject).end(bigFile));
    app.fileId = upload.id.toString();
    await db.collection('ga4mp_history').insertMany(history(app.userId));
    const download = await timedGet(`${app.baseUrl}/api/avatars/${app.fileId}`);
    const exported = await fetch(`${app.baseUrl}/api/profile/export`, { headers: { cookie: app.cookie } });
    const exportBytes = (await exported.arrayBuffer()).byteLength;
    if (download.status !== 200 || exported.status !== 200) {
      throw new Error(`Seeding the long operations failed (download ${download.status}, export ${exported.status})`);
    }
    app.exportBytes = exportBytes;
  }
  await seed.close();

  const probeSeconds = Math.max(4, Math.min(DURATION_S, 10));
  console.log('');
  console.log(
    `Latency while a long operation runs back to back (${probeSeconds} s each): GET /api/auth/me (signed in) and ` +
      'GET /health/ready, one probe at a time every 20 ms; p50 / p99 / max:',
  );
  const longRows = [];
  for (const app of apps) {
    const operations = [
      ['none (idle)', null],
      ['GET /api/avatars/:id, 16 MB from GridFS', () => timedGet(`${app.baseUrl}/api/avatars/${app.fileId}`)],
      [
        `GET /api/profile/export, ${(app.exportBytes / 1e6).toFixed(1)} MB`,
        () => timedGet(`${app.baseUrl}/api/profile/export`, { cookie: app.cookie }),
      ],
    ];
    for (const [label, operation] of operations) {
      const result = await latencyDuring(app, probeSeconds, operation);
      const each = result.operations.length ? `${result.operations.length} × ${ms(median(result.operations))}` : '—';
      longRows.push([app.label, label, each, formatLatency(result.me), formatLatency(result.ready), String(result.failed)]);
    }
  }
  printRows(['app database connection', 'long operation', 'runs × median', '/api/auth/me', '/health/ready', 'failed'], longRows);
  console.log(
    `Load average after the run: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );

  for (const app of apps) await stopChild(app.child);
  await database.stop();
  databases.delete(database);
}

/** A plain table: a header row and string cells, numbers right-aligned. */
/** Resident set size of one process (not its children), from /proc; null where /proc is missing. */
function rssMiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The app's memory under a steady mixed load (anonymous pages, signed-in pages and API calls) for
 * BENCH_MEMORY_SECONDS (60): RSS every 5 s, before, during and 15 s after. It must level off: each
 * render's query cache is released when the page is sent (the server QueryClient keeps nothing on a
 * timer), so a long run grows no more than a short one.
 */
async function benchMemory(binary) {
  heading('Memory under a mixed load');
  const seconds = positiveInt('BENCH_MEMORY_SECONDS', 60);
  const { uri } = await embeddedDatabase(binary, 'memory');
  const app = await startApp(binary, { MONGODB_URI: uri, RATE_LIMIT_MULTIPLIER: '1000000' });
  const { cookie } = await signedInCookies(app.baseUrl, 'bench-memory@example.test', uri);
  const signedIn = { cookie };
  const requests = [
    { path: '/' },
    { path: '/sponsor' },
    { path: '/privacy-policy' },
    { path: '/login' },
    { path: '/this-page-does-not-exist' },
    { path: '/dashboard/lounge', headers: signedIn },
    { path: '/dashboard/tools/ga4mp', headers: signedIn },
    { path: '/dashboard/user/profile', headers: signedIn },
    { path: '/api/auth/me', headers: signedIn },
    { path: '/api/profile', headers: signedIn },
    { path: '/health/live' },
  ];
  const samples = [];
  const sample = (label) => samples.push({ label, rss: rssMiB(app.child.pid) });
  sample('idle, before');
  const { default: autocannon } = await import('autocannon');
  const started = performance.now();
  const ticker = setInterval(() => sample(`${Math.round((performance.now() - started) / 1000)} s`), 5000);
  const result = await autocannon({ url: app.baseUrl, connections: 32, duration: seconds, timeout: 10, requests });
  clearInterval(ticker);
  sample('end of load');
  await sleep(15_000);
  sample('15 s idle after');
  console.log(
    `autocannon, 32 connections, ${seconds} s, ${requests.length} routes in turn: ${result.requests.total} requests, ${result.non2xx} non-2xx (the 404 route), ${result.errors + result.timeouts} failed`,
  );
  printRows(
    ['moment', 'app RSS'],
    samples.map(({ label, rss }) => [label, rss === null ? 'n/a' : `${rss.toFixed(0)} MiB`]),
  );
  const during = samples.filter((entry) => /^\d+ s$/.test(entry.label) && entry.rss !== null);
  if (during.length >= 6) {
    const half = Math.floor(during.length / 2);
    const firstHalf = during[half - 1].rss - during[0].rss;
    const secondHalf = during.at(-1).rss - during[half].rss;
    console.log(`Growth in the first half of the load: ${firstHalf.toFixed(0)} MiB; in the second half: ${secondHalf.toFixed(0)} MiB`);
  }
  await stopChild(app.child);
}

/**
 * The licensing API the companion apps call: validate (the call every app start and every few
 * hours makes) and activate from a device that holds a seat already (an app re-installed or
 * started again), at 32 connections with requests/s, p50/p99 and CPU per request of the app and the
 * database. Each answer carries an Ed25519-signed lease. The rate limits are lifted
 * (RATE_LIMIT_MULTIPLIER): their counters are part of each call's cost all the same.
 */
async function benchLicensing(binary) {
  heading('Licensing API: validate and activate at 32 connections');
  const { database, uri } = await embeddedDatabase(binary, 'licences');
  const adminEmail = 'bench-licences@example.test';
  const app = await startApp(binary, { MONGODB_URI: uri, RATE_LIMIT_MULTIPLIER: '1000000', ADMIN_EMAILS: adminEmail });
  const signedIn = await signedInCookies(app.baseUrl, adminEmail, uri);
  const userId = signedIn.userId;
  const { token, cookie } = await csrfOf(app.baseUrl, signedIn.cookie);
  const granted = await fetch(`${app.baseUrl}/api/admin/users/${userId}/licences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
    body: JSON.stringify({ planId: 'bench', products: ['hitscope-for-apps'], seats: 5 }),
  });
  if (granted.status !== 201 && granted.status !== 200)
    throw new Error(`Granting a licence answered ${granted.status}: ${await granted.text()}`);
  const owned = await (await fetch(`${app.baseUrl}/api/licences`, { headers: { cookie } })).json();
  const key = owned.licences[0].key;
  const decision = { key, product: 'hitscope-for-apps', fingerprint: 'a'.repeat(64), name: 'Bench machine', platform: 'linux' };
  const first = await (
    await fetch(`${app.baseUrl}/api/v1/licenses/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(decision),
    })
  ).json();
  if (first.code !== 'VALID') throw new Error(`The first activation answered ${first.code}`);

  const { default: autocannon } = await import('autocannon');
  const rows = [];
  for (const operation of ['validate', 'activate']) {
    const options = {
      url: `${app.baseUrl}/api/v1/licenses/${operation}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...decision, nonce: 'bench-nonce' }),
      connections: 32,
      timeout: 10,
    };
    await autocannon({ ...options, duration: WARMUP_S });
    const cpuBefore = [cpuMs(app.child.pid), cpuMs(database.pid)];
    const result = await autocannon({ ...options, duration: DURATION_S });
    const cpuAfter = [cpuMs(app.child.pid), cpuMs(database.pid)];
    const perRequest = (index) =>
      cpuBefore[index] === null || cpuAfter[index] === null || !result.requests.total
        ? 'n/a'
        : (((cpuAfter[index] - cpuBefore[index]) * 1000) / result.requests.total).toFixed(0);
    rows.push([
      `POST /api/v1/licenses/${operation}`,
      result.requests.mean.toFixed(0),
      `${result.latency.p50} ms`,
      `${result.latency.p99} ms`,
      `${perRequest(0)} / ${perRequest(1)}`,
      String(result.non2xx + result.errors + result.timeouts),
    ]);
  }
  console.log(`autocannon, 32 connections, ${WARMUP_S} s warm-up then ${DURATION_S} s each; one licence, one device holding a seat:`);
  printRows(['call', 'req/s', 'p50', 'p99', 'CPU µs/req app / db', 'failed'], rows);

  // The rows above answer validate from the read cache (the same device asking again within 30 s).
  // A device's first validate after a while reads the database: measured here one call at a time,
  // each on a licence of its own, right after its activation (which empties that licence's cache).
  const misses = [];
  for (let i = 0; i < 60; i += 1) {
    const grant = await fetch(`${app.baseUrl}/api/admin/users/${userId}/licences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      body: JSON.stringify({ planId: 'bench', products: ['hitscope-for-apps'], seats: 1 }),
    });
    if (grant.status !== 201 && grant.status !== 200) throw new Error(`Granting licence ${i} answered ${grant.status}`);
  }
  const licences = (await (await fetch(`${app.baseUrl}/api/licences`, { headers: { cookie } })).json()).licences.slice(1);
  for (const [i, licence] of licences.entries()) {
    const body = JSON.stringify({ ...decision, key: licence.key, fingerprint: i.toString(16).padStart(64, 'b'), nonce: `miss-${i}` });
    const post = (operation) =>
      fetch(`${app.baseUrl}/api/v1/licenses/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if ((await (await post('activate')).json()).code !== 'VALID') throw new Error(`Activating licence ${i} failed`);
    const started = performance.now();
    const answer = await (await post('validate')).json();
    misses.push(performance.now() - started);
    if (answer.code !== 'VALID') throw new Error(`Validating licence ${i} answered ${answer.code}`);
  }
  const miss = latencySummary(misses);
  console.log(
    `validate, cache miss (a device's first call: licence and devices read from the database), ${miss.n} sequential: ` +
      `p50 ${miss.p50.toFixed(1)} ms, p99 ${miss.p99.toFixed(1)} ms`,
  );
  await stopChild(app.child);
}

/** The CSRF token of a signed-in browser, and its cookie header with whatever the call set. */
async function csrfOf(baseUrl, cookie) {
  const response = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie } });
  const jar = new Map(cookie.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  for (const value of response.headers.getSetCookie()) {
    const [pair] = value.split(';');
    jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
  const { token } = await response.json();
  return { token, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
}

/** Signs the seeded scale admin in and opens /admin's overview once (answers when it is computed). */
async function openAdminOverview(baseUrl) {
  const { ADMIN_EMAIL } = await import('./bench/support/scale-seed.mjs');
  const { Browser } = await import('./bench/support/scale.mjs');
  const admin = new Browser(baseUrl);
  await admin.signIn(ADMIN_EMAIL);
  const overview = await admin.request('GET', '/api/admin/overview');
  if (overview.status !== 200) throw new Error(`The admin overview answered ${overview.status}`);
}

/** Runs `work(item)` for every item, `concurrency` at a time, in order of the list. */
async function inParallel(items, concurrency, work) {
  let next = 0;
  const results = new Array(items.length);
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

const cpuDelta = (pids, before) => pids.map((pid, index) => (before[index] === null ? null : cpuMs(pid) - before[index]));
const formatCpu = (values, per = 1, digits = 1) =>
  values.map((value) => (value === null ? 'n/a' : (value / per).toFixed(digits))).join(' / ');
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Issue 27's goal-1 data set of `users` users, written through the app's schemas (scale-seed.mjs). */
async function seedScale(uri, users) {
  const started = performance.now();
  const { appModels, licenceKeyMaker, SEED_PASSWORD, seedUsersTo } = await import('./bench/support/scale-seed.mjs');
  const { default: mongoose } = await import('mongoose');
  const argon2 = await import('@node-rs/argon2');
  const { ARGON2_PARAMS } = await import(pathToFileURL(join(root, 'dist/app/src/auth/password-hasher.service.js')).href);
  const connection = await mongoose.createConnection(uri, { maxPoolSize: 1 }).asPromise();
  try {
    const written = await seedUsersTo(await appModels(root, connection), {
      from: 0,
      to: users,
      passwordHash: await argon2.hash(SEED_PASSWORD, ARGON2_PARAMS),
      makeKey: await licenceKeyMaker(root),
      now: Date.now(),
    });
    console.log(
      `Seeded ${Object.entries(written)
        .map(([name, count]) => `${count.toLocaleString('en-GB')} ${name}`)
        .join(', ')} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await connection.close();
  }
}

/**
 * Stripe's webhook (`BENCH_ONLY=webhooks`): stripe-mock on loopback and the production app with
 * billing configured against it; BENCH_WEBHOOK_CUSTOMERS (50) signed-in people each buy a
 * subscription and the lifetime plan through `POST /api/billing/checkout`, then six signed events
 * per person (subscription created and renewed, both checkouts completed, two invoices paid) are
 * POSTed 8 at a time, every event twice, and once more after all is processed. Accept rate and POST
 * latency, processing rate (first POST until the inbox has every event `done`), CPU per event, and
 * whether the redeliveries changed anything.
 */
async function benchWebhooks(binary) {
  // BENCH_WEBHOOK_SCALE_USERS=100000: among issue 27's goal-1 data set of that many users (orders,
  // subscriptions, licences… as `BENCH_ONLY=scale` seeds them), so every lookup meets full collections.
  const scaleUsers = Number(process.env.BENCH_WEBHOOK_SCALE_USERS ?? 0);
  if (!Number.isInteger(scaleUsers) || scaleUsers < 0) throw new Error('BENCH_WEBHOOK_SCALE_USERS must be a whole number');
  heading(`Stripe webhooks: accept and processing rate${scaleUsers ? ` among ${scaleUsers.toLocaleString('en-GB')} users` : ''}`);
  const customers = positiveInt('BENCH_WEBHOOK_CUSTOMERS', 50);
  const concurrency = 8;
  const { startStripeMock } = await import(pathToFileURL(join(root, 'scripts/stripe-mock.mjs')).href);
  const { purchaseEvents, signature, stripeFixtures } = await import(
    pathToFileURL(join(root, 'scripts/bench/support/stripe-events.mjs')).href
  );
  const stripeMock = await startStripeMock((message) => console.log(`  ${message}`));
  services.add(stripeMock);
  const { database, uri } = await embeddedDatabase(binary, 'webhooks');
  if (scaleUsers) await seedScale(uri, scaleUsers);
  const webhookSecret = 'whsec_benchmark0123456789abcdef';
  const app = await startApp(binary, {
    MONGODB_URI: uri,
    RATE_LIMIT_MULTIPLIER: '1000000',
    STRIPE_SECRET_KEY: 'sk_test_benchmark0123456789',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: stripeMock.url,
  });

  // Among the seeded users, the admin overview's first computation (5 s after start-up; it reads
  // every subscription for MRR, 1.3 s of the one connection at 100 000 users) would run during the
  // burst: the seeded admin opens the overview first, which computes it and keeps it (the
  // start-up's own computation then has nothing to do). This section measures webhooks.
  if (scaleUsers) await openAdminOverview(app.baseUrl);

  // The people and their orders, as the site makes them: sign-up, then two checkouts each.
  const setupStarted = performance.now();
  const fixtures = await stripeFixtures(stripeMock.url);
  const { MongoClient } = await import('mongodb');
  const client = await MongoClient.connect(uri, { maxPoolSize: 2 });
  const db = client.db();
  const now = Math.floor(Date.now() / 1000);
  const people = await inParallel(
    Array.from({ length: customers }, (_, index) => index),
    4,
    async (index) => {
      const signedIn = await signedInCookies(app.baseUrl, `bench-webhooks-${index}@example.test`, uri);
      const { token, cookie } = await csrfOf(app.baseUrl, signedIn.cookie);
      const planId = index % 2 ? 'team-monthly' : 'solo-monthly';
      const checkout = async (plan) => {
        const response = await fetch(`${app.baseUrl}/api/billing/checkout`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
          body: JSON.stringify({ planId: plan }),
        });
        if (response.status !== 201) throw new Error(`Checkout of ${plan} answered ${response.status}: ${await response.text()}`);
        return (await response.json()).orderId;
      };
      const subscriptionOrderId = await checkout(planId);
      const lifetimeOrderId = await checkout('solo-lifetime');
      const customer = (await db.collection('billing_customers').findOne({ _id: signedIn.userId }))?.stripeCustomerId;
      if (!customer) throw new Error(`No Stripe customer was stored for ${signedIn.userId}`);
      return {
        userId: signedIn.userId,
        customer,
        planId,
        amountMinor: planId === 'team-monthly' ? 2900 : 900,
        subscriptionOrderId,
        lifetimeOrderId,
      };
    },
  );
  const perPerson = people.map((person, index) => purchaseEvents(fixtures, { ...person, tag: index.toString(36), now }));
  // Delivered kind by kind (all subscriptions created, then all subscription checkouts, …), so one
  // person's events are far apart in the stream: events of one subscription processed at the same
  // moment conflict, and the loser waits for Stripe-style back-off (30 s), which is not this measure.
  const events = perPerson[0].flatMap((_, kind) => perPerson.map((list) => list[kind]));
  const eventIds = events.map((each) => each.id);
  const bodies = events.map((each) => JSON.stringify(each));
  console.log(
    `Set-up: ${customers} people signed up, ${customers * 2} checkouts through stripe-mock, ${events.length} events ` +
      `(${(bodies.reduce((sum, body) => sum + body.length, 0) / events.length / 1024).toFixed(1)} kB each on average), ` +
      `${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
  );

  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(`${app.baseUrl}/api/billing/webhook`);
  const post = (body) =>
    new Promise((resolve) => {
      const started = performance.now();
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          timeout: 30_000,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
            'stripe-signature': signature(body, webhookSecret),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - started }));
          response.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
      request.end(body);
    });
  const deliver = async (list) => {
    const started = performance.now();
    const results = await inParallel(list, concurrency, post);
    const seconds = (performance.now() - started) / 1000;
    const ok = results.filter((result) => result.status >= 200 && result.status < 300).length;
    const statuses = {};
    for (const result of results)
      if (result.status < 200 || result.status >= 300) statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    return {
      seconds,
      ok,
      failed: results.length - ok,
      statuses,
      latency: latencySummary(results.map((result) => result.ms)),
      total: results.length,
    };
  };
  const inbox = db.collection('stripe_events');
  const inboxCounts = async () =>
    Object.fromEntries(
      (await inbox.aggregate([{ $match: { _id: { $in: eventIds } } }, { $group: { _id: '$status', n: { $sum: 1 } } }]).toArray()).map(
        (group) => [group._id, group.n],
      ),
    );
  const describe = (counts) =>
    Object.entries(counts)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ') || 'empty';

  // Every event, then every event again (Stripe redelivering while the first is being processed).
  // "Settled": every POST answered and every event has had its first attempt, done or failed (a
  // failed one waits for the worker's 30 s back-off, which is not processing speed).
  const pids = [app.child.pid, database.pid];
  const cpuBefore = pids.map(cpuMs);
  const started = performance.now();
  let acceptedAt = null;
  const deliveries = deliver([...bodies, ...bodies]).then((result) => {
    acceptedAt = performance.now();
    return result;
  });
  // Watched by _id, in delivery order, every 100 ms, the next 50 waiting in one read: FerretDB finds
  // documents by _id through its index, while any filter on the status reads the whole inbox (65 ms
  // at 300 events, measured): polling with one would take a good part of the database's time, and
  // so did a read per event (300 of them in a run, on the database being measured).
  const settleLimitS = 40;
  const waiting = events.map((each) => each.id);
  const firstAttempt = {};
  let settledAt = null;
  while (performance.now() - started < settleLimitS * 1000) {
    await sleep(100);
    while (waiting.length) {
      const next = waiting.slice(0, 50);
      const statuses = new Map(
        (await inbox.find({ _id: { $in: next } }, { projection: { status: 1 } }).toArray()).map((record) => [record._id, record.status]),
      );
      let settledHere = 0;
      for (const id of next) {
        // Not stored: both its deliveries were refused (counted once every POST is answered).
        const status = statuses.get(id) ?? (acceptedAt === null ? null : 'not stored');
        if (status === null || status === 'pending' || status === 'processing') break;
        firstAttempt[status] = (firstAttempt[status] ?? 0) + 1;
        settledHere += 1;
      }
      waiting.splice(0, settledHere);
      if (settledHere < next.length) break;
    }
    if (!waiting.length && acceptedAt !== null) {
      settledAt = performance.now();
      break;
    }
  }
  const allDoneAt = settledAt !== null && firstAttempt.done === events.length ? settledAt : null;
  const counts = await inboxCounts();
  const accepted = await deliveries;
  const cpu = cpuDelta(pids, cpuBefore);
  const stored = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const failures = await inbox
    .aggregate([{ $match: { status: { $in: ['failed', 'dead'] } } }, { $group: { _id: '$outcome', n: { $sum: 1 } } }])
    .toArray();

  // What the events did, then every event once more (Stripe redelivering a day later): nothing may
  // change. The inbox's statuses are part of the picture, to tell a back-off retry that ran meanwhile.
  const snapshot = async () => {
    // The section's own people and events only (with BENCH_WEBHOOK_SCALE_USERS the collections hold
    // the seeded data set too).
    const read = (name, filter, projection = {}) => db.collection(name).find(filter, { projection }).sort({ _id: 1 }).toArray();
    const own = { userId: { $in: people.map((person) => person.userId) } };
    const [orders, subscriptions, licences, mails, events] = await Promise.all([
      read('orders', own),
      read('subscriptions', own),
      read('licences', own),
      read('mail_outbox', {}, { _id: 1 }),
      read('stripe_events', { _id: { $in: eventIds } }, { status: 1, attempts: 1 }),
    ]);
    return {
      orders,
      subscriptions,
      licences,
      state: JSON.stringify([orders, subscriptions, licences, mails]),
      inbox: JSON.stringify(events),
    };
  };
  const before = await snapshot();
  const cpuLateBefore = pids.map(cpuMs);
  const late = await deliver(bodies);
  const cpuLate = cpuDelta(pids, cpuLateBefore);
  await sleep(500);
  const after = await snapshot();
  const storedAfter = await inbox.countDocuments({ _id: { $in: eventIds } });

  const seconds = (at) => ((at - started) / 1000).toFixed(2);
  const rows = [
    [`${events.length} events, each twice (${accepted.total} POSTs)`, accepted],
    [`the same ${events.length} again, once settled`, late],
  ].map(([label, result]) => [
    label,
    (result.ok / result.seconds).toFixed(0),
    `${result.latency.p50.toFixed(1)} ms`,
    `${result.latency.p99.toFixed(1)} ms`,
    result.failed
      ? `${result.failed} (${Object.entries(result.statuses)
          .map(([status, n]) => `${n} × ${status === '0' ? 'no answer' : status}`)
          .join(', ')})`
      : '0',
  ]);
  console.log(`POST /api/billing/webhook, ${concurrency} at a time, each signed as Stripe signs (keep-alive connections):`);
  printRows(['deliveries', '2xx/s', 'p50', 'p99', 'non-2xx'], rows);
  console.log('');
  const settledCount = settledAt === null ? (counts.done ?? 0) + (counts.failed ?? 0) + (counts.dead ?? 0) : events.length;
  printRows(
    ['processing (from the first POST)', 'result'],
    [
      [`all ${accepted.total} POSTs answered`, `${seconds(acceptedAt)} s`],
      [
        'inbox settled (every event had its first attempt)',
        settledAt === null
          ? `NOT within ${settleLimitS} s: ${settledCount} had theirs, ${(settledCount / settleLimitS).toFixed(1)} events/s`
          : `${seconds(settledAt)} s: ${(settledCount / ((settledAt - started) / 1000)).toFixed(1)} events/s`,
      ],
      [
        `all ${events.length} events done`,
        allDoneAt === null
          ? `not in the run: ${counts.done ?? 0} done by then (${describe(firstAttempt)} at the first attempt, in delivery order)`
          : `${seconds(allDoneAt)} s: ${(events.length / ((allDoneAt - started) / 1000)).toFixed(1)} events/s`,
      ],
      ['inbox then', `${describe(counts)} (${stored} stored of ${events.length})`],
      ['CPU per event, app / database', `${formatCpu(cpu, events.length)} ms (both deliveries and the processing)`],
      ['CPU per late redelivery, app / database', `${formatCpu(cpuLate, events.length)} ms`],
    ],
  );
  for (const failure of failures.sort((x, y) => y.n - x.n).slice(0, 5))
    console.log(`  failed first attempt, ${failure.n} ×: ${failure._id}`);

  const paid = before.orders.filter((order) => order.status === 'paid').length;
  const expected = { orders: customers * 3, subscriptions: customers, licences: customers * 4 };
  const sameState = before.state === after.state;
  const sameInbox = before.inbox === after.inbox;
  console.log('');
  console.log(
    `Effect: ${before.orders.length} orders (${paid} paid; expected ${expected.orders}: two checkouts and one renewal each), ` +
      `${before.subscriptions.length} subscriptions (expected ${expected.subscriptions}), ${before.licences.length} licences ` +
      `(expected ${expected.licences}: two products × subscription and lifetime), ${storedAfter} events in the inbox ` +
      `after ${accepted.total + late.total} deliveries.`,
  );
  const tooMany =
    before.orders.length > expected.orders ||
    before.subscriptions.length > expected.subscriptions ||
    before.licences.length > expected.licences;
  console.log(
    tooMany
      ? 'WRONG: more orders, subscriptions or licences than purchases.'
      : !sameState && sameInbox
        ? 'WRONG: the late redelivery changed orders, subscriptions, licences or the mail outbox.'
        : !sameState
          ? settledAt === null
            ? 'Not conclusive: events of the first deliveries were still being processed during the late redelivery.'
            : 'Not conclusive: a back-off retry ran during the late redelivery and changed the state.'
          : 'Duplicates had no further effect: nothing beyond one order, subscription and licence per purchase, and ' +
            'orders, subscriptions, licences and mail outbox identical before and after the late redelivery.',
  );
  console.log(`Load average after the run: ${loadAverage()}`);
  await client.close();
  agent.destroy();
  await stopChild(app.child);
  await database.stop();
  databases.delete(database);
  await stripeMock.stop();
  services.delete(stripeMock);
  // No thresholds on speed; a duplicate that did something is a wrong result, not a slow one.
  if (tooMany || (!sameState && sameInbox) || storedAfter > events.length) throw new Error('Webhooks: a duplicate delivery had an effect');
}

/**
 * Releases (`BENCH_ONLY=releases`): a BENCH_RELEASE_MIB (64) MiB build uploaded through
 * `POST /api/admin/releases` (multipart, streamed to GridFS while hashed), then downloaded in full
 * by a licence holder, one at a time and 8 at once, each checked against the recorded SHA-256, and
 * the time to the first byte of a 1 MiB range near the end.
 */
async function benchReleases(binary) {
  heading('Releases: upload, downloads and a range');
  const mib = positiveInt('BENCH_RELEASE_MIB', 64);
  const size = mib * 1024 * 1024;
  const { database, uri } = await embeddedDatabase(binary, 'releases');
  const adminEmail = 'bench-releases-admin@example.test';
  const app = await startApp(binary, { MONGODB_URI: uri, RATE_LIMIT_MULTIPLIER: '1000000', ADMIN_EMAILS: adminEmail });
  const admin = await signedInCookies(app.baseUrl, adminEmail, uri);
  const adminCsrf = await csrfOf(app.baseUrl, admin.cookie);
  const holder = await signedInCookies(app.baseUrl, 'bench-releases-holder@example.test', uri);
  const granted = await fetch(`${app.baseUrl}/api/admin/users/${holder.userId}/licences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': adminCsrf.token, cookie: adminCsrf.cookie },
    body: JSON.stringify({ planId: 'solo-lifetime', products: ['hitscope-for-apps'], seats: 1 }),
  });
  if (granted.status !== 201) throw new Error(`Granting a licence answered ${granted.status}: ${await granted.text()}`);

  // The build: random bytes (incompressible, as a packed build mostly is).
  const { createHash, randomBytes } = await import('node:crypto');
  const file = randomBytes(size);
  const sha256 = createHash('sha256').update(file).digest('hex');

  const boundary = `----hitscope-bench-${randomBytes(8).toString('hex')}`;
  const fields = { product: 'hitscope-for-apps', platform: 'linux', arch: 'x64', channel: 'stable', version: '1.0.0', size: String(size) };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Hitscope-1.0.0.AppImage"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const target = new URL(`${app.baseUrl}/api/admin/releases`);
  const pids = [app.child.pid, database.pid];
  let cpuBefore = pids.map(cpuMs);
  let started = performance.now();
  const uploaded = await new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        timeout: 120_000,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
          'x-csrf-token': adminCsrf.token,
          cookie: adminCsrf.cookie,
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('The upload timed out')));
    request.on('error', reject);
    request.write(head);
    // In 1 MiB writes, as a browser's upload arrives.
    for (let offset = 0; offset < size; offset += 1024 * 1024) request.write(file.subarray(offset, offset + 1024 * 1024));
    request.end(tail);
  });
  const uploadSeconds = (performance.now() - started) / 1000;
  const uploadCpu = cpuDelta(pids, cpuBefore);
  if (uploaded.status !== 201) throw new Error(`The upload answered ${uploaded.status}: ${uploaded.body.slice(0, 500)}`);
  const release = JSON.parse(uploaded.body);
  if (release.file.sha256 !== sha256) throw new Error(`The recorded SHA-256 ${release.file.sha256} is not the build's ${sha256}`);
  const downloadUrl = new URL(`${app.baseUrl}${release.downloadUrl}`);

  /** A GET of the download with the holder's cookie: status, bytes, SHA-256, time to the first byte and to the last. */
  const download = (headers = {}) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const request = http.get(
        {
          host: downloadUrl.hostname,
          port: downloadUrl.port,
          path: downloadUrl.pathname,
          timeout: 120_000,
          headers: { cookie: holder.cookie, ...headers },
        },
        (response) => {
          const hash = createHash('sha256');
          const kept = [];
          let bytes = 0;
          let firstByteMs = null;
          response.on('data', (chunk) => {
            firstByteMs ??= performance.now() - started;
            bytes += chunk.length;
            hash.update(chunk);
            if (headers.range) kept.push(chunk);
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode,
              bytes,
              sha256: hash.digest('hex'),
              body: headers.range ? Buffer.concat(kept) : null,
              firstByteMs,
              ms: performance.now() - started,
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('The download timed out')));
      request.on('error', reject);
    });
  const checkFull = (result) => {
    if (result.status !== 200 || result.bytes !== size || result.sha256 !== release.file.sha256) {
      throw new Error(
        `A download answered ${result.status} with ${result.bytes} bytes, SHA-256 ${result.sha256} (recorded ${release.file.sha256})`,
      );
    }
  };

  const rows = [];
  const mibPerS = (bytes, seconds) => (bytes / 1024 / 1024 / seconds).toFixed(1);
  rows.push([
    `upload ${mib} MiB (multipart, admin)`,
    mibPerS(size, uploadSeconds),
    `${uploadSeconds.toFixed(2)} s`,
    `${formatCpu(uploadCpu, mib)} ms`,
  ]);
  for (const parallel of [1, 8]) {
    cpuBefore = pids.map(cpuMs);
    started = performance.now();
    const results = await Promise.all(Array.from({ length: parallel }, () => download()));
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuDelta(pids, cpuBefore);
    results.forEach(checkFull);
    const each = results.map((result) => result.ms / 1000).sort((a, b) => a - b);
    rows.push([
      parallel === 1 ? `1 full download` : `${parallel} full downloads at once`,
      mibPerS(size * parallel, seconds),
      parallel === 1 ? `${seconds.toFixed(2)} s` : `${seconds.toFixed(2)} s (each ${each[0].toFixed(1)}–${each.at(-1).toFixed(1)} s)`,
      `${formatCpu(cpu, mib * parallel)} ms`,
    ]);
  }
  console.log(`${mib} MiB build, GridFS on the embedded database; SHA-256 of every download checked against the recorded one:`);
  printRows(['transfer', 'MiB/s', 'time', 'CPU per MiB app / db'], rows);

  // A resumed download's last part: 1 MiB starting 2 MiB before the end, and for comparison the
  // first MiB; three requests each, the median. A 206 must carry exactly the build's bytes.
  const mibBytes = 1024 * 1024;
  const slices = [
    ['1 MiB, 2 MiB before the end', size - 2 * mibBytes],
    ['1 MiB at the start', 0],
  ];
  const rangeRows = [];
  let rangesOk = true;
  for (const [label, start] of slices) {
    const end = start + mibBytes - 1;
    const results = [];
    for (let run = 0; run < 3; run += 1) {
      const result = await download({ range: `bytes=${start}-${end}` });
      if (result.status === 206 && !result.body.equals(file.subarray(start, end + 1))) {
        throw new Error(`The range ${start}-${end} answered 206 with bytes that are not the build's`);
      }
      results.push(result);
    }
    const good = results.filter((result) => result.status === 206);
    const bad = results.filter((result) => result.status !== 206);
    if (bad.length) rangesOk = false;
    rangeRows.push([
      `bytes=${start}-${end} (${label})`,
      good.length ? `${median(good.map((result) => result.firstByteMs)).toFixed(1)} ms` : '—',
      good.length ? `${median(good.map((result) => result.ms)).toFixed(1)} ms` : '—',
      bad.length ? `${bad.length} of 3 (${bad.map((result) => `${result.status} after ${result.ms.toFixed(0)} ms`).join(', ')})` : '0',
    ]);
  }
  console.log('');
  console.log('Range requests (Range: bytes=…, signed-in licence holder), 3 each, median:');
  printRows(['range', 'first byte', 'whole slice', 'not 206'], rangeRows);
  console.log(
    `SHA-256 ${sha256}: the upload's record and all ${1 + 8} full downloads agree` +
      (rangesOk ? '; every range answered carries the build’s bytes.' : '; ranges answered 206 carry the build’s bytes.'),
  );
  console.log(`Load average after the run: ${loadAverage()}`);
  await stopChild(app.child);
  await database.stop();
  databases.delete(database);
}

/**
 * First-party analytics (`BENCH_ONLY=analytics`): the collector `POST /api/e` under load at 32
 * connections with varied paths, referrers, user agents and addresses (TRUST_PROXY=loopback, so
 * the app takes the address from X-Forwarded-For as it would behind a proxy), its CPU per event and
 * the database writes it causes; then the 90-day dashboard on 90 days of closed-day summaries.
 */
async function benchAnalytics(binary) {
  heading('Analytics: collector ingest at 32 connections, 90-day dashboard');
  const { database, uri } = await embeddedDatabase(binary, 'analytics');
  const adminEmail = 'bench-analytics@example.test';
  const app = await startApp(binary, {
    MONGODB_URI: uri,
    TRUST_PROXY: 'loopback',
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_MULTIPLIER: '1000',
  });
  const { MongoClient } = await import('mongodb');
  /** Runs `work` with a short-lived client (none stays open while autocannon runs). */
  const withDb = async (work) => {
    const client = await MongoClient.connect(uri, { maxPoolSize: 1 });
    try {
      return await work(client.db());
    } finally {
      await client.close();
    }
  };

  const agents = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ];
  const paths = ['/', '/sponsor', '/privacy-policy', '/login', '/register', ...Array.from({ length: 40 }, (_, i) => `/docs/page-${i}`)];
  const referrers = [undefined, undefined, 'https://www.google.com/', 'https://news.ycombinator.com/', 'https://example.org/blog/post'];
  // 512 distinct (address, browser) pairs, cycled: the first page view of each is a new visitor-day
  // (an insert), the rest are page views of known visitors (memory only until the flush).
  const requests = Array.from({ length: 512 }, (_, i) => {
    const body = { p: paths[(i * 7) % paths.length], w: 1280 };
    const referrer = referrers[i % referrers.length];
    if (referrer) body.r = referrer;
    if (i % 11 === 0) Object.assign(body, { us: 'newsletter', um: 'email', uc: 'launch' });
    return {
      method: 'POST',
      path: '/api/e',
      headers: {
        'content-type': 'text/plain',
        origin: app.baseUrl,
        'sec-fetch-site': 'same-origin',
        'user-agent': agents[i % agents.length],
        'x-forwarded-for': `10.${(i >> 12) & 255}.${(i >> 6) & 63}.${i & 63}`,
      },
      body: JSON.stringify(body),
    };
  });

  // 90 closed days as the day close leaves them: one summary document per day with every breakdown.
  const summaries = [];
  for (let back = 1; back <= 90; back += 1) {
    const day = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const counts = [
      ['total', 'pageviews', 5000 + back],
      ['total', 'visitors', 1200],
      ['total', 'visits', 1500],
      ['total', 'bounces', 700],
    ];
    for (const [dim, size] of [
      ['page', 200],
      ['entry', 100],
      ['referrer', 60],
      ['channel', 6],
      ['utm_source', 20],
      ['utm_medium', 10],
      ['utm_campaign', 20],
      ['device', 3],
      ['browser', 8],
      ['os', 7],
      ['country', 40],
      ['drop', 8],
    ]) {
      for (let i = 0; i < size; i += 1) counts.push([dim, `${dim}-value-${i}`, 1 + ((i * 31 + back) % 97)]);
    }
    summaries.push({ _id: day, counts: JSON.stringify(counts), closedAt: new Date() });
  }
  await withDb(async (db) => {
    await db.collection('analytics_days').deleteMany({ _id: { $in: summaries.map((summary) => summary._id) } });
    await db.collection('analytics_days').insertMany(summaries);
  });
  const signedIn = await signedInCookies(app.baseUrl, adminEmail, uri);
  const { default: autocannon } = await import('autocannon');
  const options = { url: app.baseUrl, requests, connections: 32, timeout: 10 };
  await autocannon({ ...options, duration: WARMUP_S });
  const cpuBefore = [cpuMs(app.child.pid), cpuMs(database.pid)];
  const result = await autocannon({ ...options, duration: DURATION_S });
  const cpuAfter = [cpuMs(app.child.pid), cpuMs(database.pid)];
  await sleep(6000); // the last flush lands
  // Read through the app (a second client writing to FerretDB's SQLite files while the app flushes
  // would measure lock waits, not the app).
  let today = null;
  for (let attempt = 0; attempt < 15 && !today; attempt += 1) {
    const response = await fetch(`${app.baseUrl}/api/admin/analytics?preset=today`, { headers: { cookie: signedIn.cookie } });
    if (response.status === 200) today = await response.json();
    else {
      console.log(`The dashboard answered ${response.status} after the load: ${(await response.text()).slice(0, 200)}; trying again`);
      if (attempt === 2) console.log(app.child.output.slice(-1500));
      await sleep(2000);
    }
  }
  if (!today) throw new Error('The dashboard did not answer after the load');
  const pageviews = today.kpis.pageviews;
  const visitorDays = today.kpis.visitors;
  const bots = today.drops.find((drop) => drop.reason === 'bot')?.count ?? 0;
  const keys = Object.values(today.tables).reduce((sum, rows) => sum + rows.length, 0) + 4 + today.drops.length;
  const perEvent = (index) =>
    cpuBefore[index] === null || cpuAfter[index] === null || !result.requests.total
      ? 'n/a'
      : (((cpuAfter[index] - cpuBefore[index]) * 1000) / result.requests.total).toFixed(0);
  // Writes: one insert per new visitor-day, and per flush (every 5 s) one upsert per counter key
  // touched plus one update per active visitor (an upper bound: every key and visitor in every flush).
  const flushes = Math.ceil((WARMUP_S + DURATION_S) / 5) + 1;
  // Visitors' documents are rewritten at most once a minute while a visit goes on.
  const writeBound = visitorDays + flushes * keys + visitorDays * Math.ceil((WARMUP_S + DURATION_S) / 60);
  console.log(
    `autocannon, 32 connections, ${WARMUP_S} s warm-up then ${DURATION_S} s; ${requests.length} distinct address × browser pairs, ` +
      `${paths.length} paths, 1 in 6 a bot:`,
  );
  printRows(
    ['call', 'events/s', 'p50', 'p99', 'CPU µs/event app / db', 'non-202', 'goal'],
    [
      [
        'POST /api/e',
        result.requests.mean.toFixed(0),
        `${result.latency.p50} ms`,
        `${result.latency.p99} ms`,
        `${perEvent(0)} / ${perEvent(1)}`,
        String(result.non2xx + result.errors + result.timeouts),
        '≥ 2000 events/s',
      ],
    ],
  );
  console.log(
    `Counted (warm-up and run): ${pageviews} page views, ${bots} bot drops, ${visitorDays} visitor-days, about ${keys} counter keys. ` +
      `Database writes: at most ${(writeBound / (WARMUP_S + DURATION_S)).toFixed(0)}/s for ` +
      `${(result.requests.total / DURATION_S).toFixed(0)} events/s (one insert per new visitor-day, one upsert per counter key ` +
      `per 5 s flush, a visitor's document when a visit starts or every 4 minutes); they grow with visitors and distinct values, not page views.`,
  );

  // The latency goal is for the collector taking 2 000 events/s. Flat out at 32 connections the mean
  // latency is 32 ÷ throughput whatever the code does (Little's law), so it is measured at a fixed
  // arrival rate, evenly spaced (support/paced-load.mjs says why not autocannon's overallRate), and
  // the same load against a server that answers 202 at once shows what the generator alone adds.
  const { pacedLoad, startNullServer } = await import('./bench/support/paced-load.mjs');
  const nullServer = await startNullServer(HOST);
  const floor = await pacedLoad({ baseUrl: nullServer.baseUrl, requests, rate: 2000, durationS: DURATION_S });
  nullServer.close();
  const paced = await pacedLoad({ baseUrl: app.baseUrl, requests, rate: 2000, durationS: DURATION_S });
  const latency = ({ p50, p99, max }) => `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(0)} ms`;
  printRows(
    ['at a fixed 2 000 events/s, 32 keep-alive connections', 'events/s', 'latency from the write', 'from the due time', 'not 202', 'goal'],
    [
      ['POST /api/e', paced.perSecond.toFixed(0), latency(paced.fromSend), latency(paced.fromDue), String(paced.failed), 'p99 < 5 ms'],
      [
        'the same load, a server that answers 202 at once',
        floor.perSecond.toFixed(0),
        latency(floor.fromSend),
        latency(floor.fromDue),
        String(floor.failed),
        '',
      ],
    ],
  );

  const dashboardUrl = `${app.baseUrl}/api/admin/analytics?preset=90d`;
  const times = [];
  const serverTimes = [];
  for (let i = 0; i < 25; i += 1) {
    const started = performance.now();
    const response = await fetch(dashboardUrl, { headers: { cookie: signedIn.cookie } });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`The dashboard answered ${response.status}: ${JSON.stringify(body)}`);
    if (i >= 5) {
      times.push(performance.now() - started);
      serverTimes.push(body.tookMs);
    }
  }
  const total = latencySummary(times);
  const server = latencySummary(serverTimes);
  console.log(
    `90-day dashboard (GET /api/admin/analytics?preset=90d, 180 days read for the comparison: 90 summaries of ` +
      `${JSON.parse(summaries[0].counts).length} counts each + today's counters), ${total.n} sequential after 5 warm-ups: ` +
      `p50 ${total.p50.toFixed(1)} ms, p99 ${total.p99.toFixed(1)} ms end to end; server compute p50 ${server.p50.toFixed(1)} ms ` +
      `(goal < 100 ms)`,
  );
  console.log(`Load average after the run: ${loadAverage()}`);
  await stopChild(app.child);
  await database.stop();
  databases.delete(database);
}

function printRows(header, rows) {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index].length)));
  const numeric = (cell) => /^[\d.]+( ms)?$/.test(cell);
  const format = (row) => row.map((cell, index) => (numeric(cell) ? cell.padStart(widths[index]) : cell.padEnd(widths[index]))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(format(row));
}

/**
 * Newsletter campaigns (`BENCH_ONLY=campaigns`): BENCH_CAMPAIGN_RECIPIENTS (10 000) confirmed
 * subscribers, one campaign sent by the production app through a local SMTP server (smtp-server on
 * loopback, accepting everything) with no rate limit. Prints the recipient snapshot's time, the send
 * rate, the total and the CPU of the app and the database, and checks that nobody got two copies.
 */
async function benchCampaigns(binary) {
  const recipients = positiveInt('BENCH_CAMPAIGN_RECIPIENTS', 10_000);
  heading(`Newsletter campaign: ${recipients.toLocaleString('en-GB')} recipients to a local SMTP server`);
  const { SMTPServer } = await import('smtp-server');
  const received = new Map();
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    maxClients: 1000,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) received.set(rcpt.address, (received.get(rcpt.address) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise((resolve) => sink.listen(0, HOST, resolve));
  const sinkService = { stop: () => new Promise((resolve) => sink.close(resolve)) };
  services.add(sinkService);
  const smtpPort = sink.server.address().port;

  const { database, uri } = await embeddedDatabase(binary, 'campaigns');
  const adminEmail = 'bench-campaigns@example.test';
  const app = await startApp(binary, {
    MONGODB_URI: uri,
    SMTP_URL: `smtp://${HOST}:${smtpPort}`,
    RATE_LIMIT_MULTIPLIER: '1000000',
    ADMIN_EMAILS: adminEmail,
  });
  const signedIn = await signedInCookies(app.baseUrl, adminEmail, uri);
  const { token, cookie } = await csrfOf(app.baseUrl, signedIn.cookie);
  const post = (path, body) =>
    fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const { MongoClient } = await import('mongodb');
  const client = await MongoClient.connect(uri, { maxPoolSize: 1 });
  try {
    const seedStarted = performance.now();
    await insertConfirmedSubscribers(
      client.db(),
      Array.from({ length: recipients }, (_, index) => `reader-${String(index).padStart(6, '0')}@example.test`),
      'bench',
    );
    console.log(`Seeded ${recipients.toLocaleString('en-GB')} confirmed subscribers in ${ms(performance.now() - seedStarted)}`);

    const created = await post('/api/admin/newsletter/campaigns', {
      subject: 'Benchmark campaign',
      body: '# Hitscope news\n\nA paragraph with **bold** text, a [link](/pricing) and a list:\n\n- one\n- two\n- three',
    });
    if (created.status !== 201) throw new Error(`Creating the campaign answered ${created.status}: ${await created.text()}`);
    const { id } = await created.json();
    const pids = [app.child.pid, database.pid];
    const cpuBefore = pids.map((pid) => cpuMs(pid));
    const started = performance.now();
    const sent = await post(`/api/admin/newsletter/campaigns/${id}/send`);
    if (sent.status !== 200) throw new Error(`Sending answered ${sent.status}: ${await sent.text()}`);
    let snapshotMs = null;
    let firstSentMs = null;
    let campaign = null;
    // When each further 1 000 messages had gone: a rate that falls as the deliveries grow shows here.
    const marks = [{ sent: 0, at: 0 }];
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      campaign = await client.db().collection('newsletter_campaigns').findOne({ _id: id });
      if (snapshotMs === null && campaign?.snapshotComplete) snapshotMs = performance.now() - started;
      if (firstSentMs === null && campaign?.sent > 0) firstSentMs = performance.now() - started;
      if ((campaign?.sent ?? 0) >= marks.at(-1).sent + 1000 || (campaign?.state === 'sent' && campaign.sent > marks.at(-1).sent)) {
        marks.push({ sent: campaign.sent, at: performance.now() - started });
      }
      if (campaign?.state === 'sent') break;
      if (Date.now() > deadline) throw new Error(`The campaign did not finish within 15 minutes: ${JSON.stringify(campaign)}`);
      await sleep(250);
    }
    const totalMs = performance.now() - started;
    const [appCpu, dbCpu] = cpuDelta(pids, cpuBefore);
    const copies = [...received.values()];
    const duplicates = copies.filter((n) => n > 1).length;
    printRows(
      ['Measure', 'Value'],
      [
        ['recipients', String(recipients)],
        ['snapshot complete after', ms(snapshotMs)],
        ['first message sent after', ms(firstSentMs)],
        ['total (send → sent)', ms(totalMs)],
        ['messages/s (whole campaign)', (campaign.sent / (totalMs / 1000)).toFixed(1)],
        ['sent / failed / skipped', `${campaign.sent} / ${campaign.failed} / ${campaign.skipped}`],
        ['received by the SMTP server', String(copies.length)],
        ['recipients with two copies', String(duplicates)],
        ['CPU app / database (s)', formatCpu([appCpu, dbCpu], 1000)],
        ['CPU per 1 000 messages app / database (ms)', formatCpu([appCpu, dbCpu], recipients / 1000, 0)],
      ],
    );
    console.log('');
    printRows(
      ['Messages', 'At', 'messages/s in between'],
      marks
        .slice(1)
        .map((mark, index) => [
          `${marks[index].sent}–${mark.sent}`,
          ms(mark.at),
          ((mark.sent - marks[index].sent) / ((mark.at - marks[index].at) / 1000)).toFixed(1),
        ]),
    );
    console.log(`Load average after: ${loadAverage()}`);
  } finally {
    await client.close();
    await stopChild(app.child);
    services.delete(sinkService);
    await sinkService.stop();
  }
}

async function main() {
  const cpus = os.cpus();
  console.log('Hitscope benchmark');
  console.log(
    `Node ${process.version} on ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ` +
      `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
  );
  const [load1] = os.loadavg();
  console.log(
    `Load average before the run: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  if (load1 > cpus.length / 2) {
    console.log('Warning: the machine is busy; the numbers below will be lower and noisier than on an idle machine.');
  }
  ensureProductionBuild();
  const only = process.env.BENCH_ONLY;
  // The launcher binary, built (and its cold start measured) once for the sections that need it.
  let binary = null;
  const databaseBinary = async () => (binary ??= (await benchEmbeddedDatabase()).binary);
  if (!only || only === 'http') await benchHttp(await databaseBinary());
  if (!only || only === 'database') {
    const built = await databaseBinary();
    if (!only) await benchLogin(built);
    await benchDatabaseConnection(built);
  }
  if (!only || only === 'memory') await benchMemory(await databaseBinary());
  if (!only || only === 'licensing') await benchLicensing(await databaseBinary());
  if (!only || only === 'tools') await benchTools();
  if (!only || only === 'webhooks') await benchWebhooks(await databaseBinary());
  if (!only || only === 'releases') await benchReleases(await databaseBinary());
  if (!only || only === 'analytics') await benchAnalytics(await databaseBinary());
  if (!only || only === 'campaigns') await benchCampaigns(await databaseBinary());
  if (only === 'scale') {
    await benchScale({
      root,
      binary: await databaseBinary(),
      heading,
      startApp,
      stopChild,
      tempDir,
      positiveInt,
      loadAverage,
      databases,
      services,
    });
  }
}

// Protocol-module benchmarks live beside this script in scripts/bench/*.mjs, one per tool. Each
// exports `title` and a default async function that prints its own numbers; it imports the compiled
// protocol modules from `dist` (dist/app/lib/...). `BENCH_ONLY=tools` runs just these.
async function benchTools() {
  const folder = join(root, 'scripts/bench');
  if (!existsSync(folder)) return;
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.mjs'))
    .sort()) {
    const module = await import(pathToFileURL(join(folder, file)).href);
    heading(module.title ?? file);
    await module.default({ root, median, dist: join(root, 'dist/app') });
  }
}

main()
  .then(async () => {
    await cleanup();
    process.exit(0);
  })
  .catch(async (error) => {
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    await cleanup();
    process.exit(1);
  });
