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
//
// Only loopback addresses; every port is picked free by the OS; every child is killed on exit; the
// whole run is bounded in time. BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS
// (default 10) tune the load runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const COLD_STARTS = 3;
const DURATION_S = positiveInt('BENCH_DURATION', 10);
const WARMUP_S = 2;
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
// Generous: it covers a first-time production build and a first-time Go build of the database.
const HARD_LIMIT_MS = 20 * 60_000;

const children = new Set();
const databases = new Set();
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
function cpuMs(pid) {
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

/** A port the OS reports free on loopback (listen on 0, read it, release it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
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
    await Promise.all([...databases].map((database) => database.stop().catch(() => undefined)));
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
function get(url, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { timeout: timeoutMs }, (response) => {
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
  // Always the embedded database in a throw-away folder: the benchmark never touches a real one.
  delete env.MONGODB_URI;
  const started = performance.now();
  const child = startChild('app', ['--enable-source-maps', 'dist/app/src/main.js'], { env });
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

async function startBaseline(bytes) {
  const child = startChild('baseline', ['-e', BASELINE_SOURCE], { env: { ...process.env, BENCH_BODY_BYTES: String(bytes) } });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The baseline server did not start:\n${child.output}`)), 10_000);
    child.stdout.once('data', (chunk) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(chunk.toString().split('\n')[0]).port);
      } catch {
        reject(new Error(`Unexpected output from the baseline server: ${chunk}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`The baseline server exited with code ${code}:\n${child.output}`)));
  });
  return { child, baseUrl: `http://${HOST}:${port}` };
}

async function load(url, durationS) {
  const { default: autocannon } = await import('autocannon');
  const run = autocannon({ url, connections: CONNECTIONS, duration: durationS, timeout: 10 });
  const timer = setTimeout(() => run.stop?.(), (durationS + 30) * 1000);
  try {
    return await run;
  } finally {
    clearTimeout(timer);
  }
}

async function measure(label, url, pid) {
  await load(url, WARMUP_S);
  const cpuBefore = cpuMs(pid);
  const result = await load(url, DURATION_S);
  const cpuAfter = cpuMs(pid);
  return {
    cpuPerRequestUs:
      cpuBefore === null || cpuAfter === null || !result.requests.total ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
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

function printTable(rows) {
  const columns = [
    ['target', (row) => row.label, 'left'],
    ['req/s (mean)', (row) => row.rps.toFixed(0)],
    ['p50 ms', (row) => row.p50.toFixed(1)],
    ['p99 ms', (row) => row.p99.toFixed(1)],
    ['MB/s', (row) => row.mbps.toFixed(1)],
    ['server CPU µs/req', (row) => (row.cpuPerRequestUs === null ? 'n/a' : row.cpuPerRequestUs.toFixed(0))],
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

async function benchHttp(binary) {
  heading('HTTP throughput: server-side rendering vs a static node:http baseline');
  const app = await startApp(binary);
  console.log(`Production app ready in ${ms(app.startMs)} (spawn → /health/ready 200, embedded database included)`);

  const home = await get(`${app.baseUrl}/`);
  if (home.status !== 200) throw new Error(`GET / answered ${home.status}; expected 200`);
  const bytes = home.body.length;
  const baseline = await startBaseline(bytes);
  console.log(`Home page: ${bytes} bytes of HTML (uncompressed); baseline body: ${bytes} bytes`);
  console.log(`Load: autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s, loopback, keep-alive`);
  console.log('');

  const rows = [];
  rows.push(await measure(`node:http static body (${bytes} B)`, `${baseline.baseUrl}/`, baseline.child.pid));
  rows.push(await measure('Hitscope SSR GET /', `${app.baseUrl}/`, app.child.pid));
  rows.push(await measure('Hitscope GET /api/auth/csrf', `${app.baseUrl}/api/auth/csrf`, app.child.pid));
  rows.push(await measure('Hitscope GET /health/live', `${app.baseUrl}/health/live`, app.child.pid));
  printTable(rows);

  const [base, ssr] = rows;
  const ratio = ssr.rps / base.rps;
  console.log('');
  console.log(
    `SSR / baseline requests/s: ${ratio.toFixed(3)} (${(1 / ratio).toFixed(1)}x fewer requests per second than the static baseline)`,
  );
  if (ssr.cpuPerRequestUs !== null && base.cpuPerRequestUs) {
    console.log(
      `SSR / baseline server CPU per request: ${(ssr.cpuPerRequestUs / base.cpuPerRequestUs).toFixed(1)}x ` +
        '(app: its Node process and its embedded database; less sensitive to other load on the machine)',
    );
  }
  console.log(
    `Load average after the run: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  await stopChild(baseline.child);
  await stopChild(app.child);
  return { rows, ratio, bytes, appStartMs: app.startMs };
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
  const app = await startApp(binary, { RATE_LIMIT_MULTIPLIER: '1000000' });
  const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const { token } = await csrf.json();
  const credentials = { email: 'bench@example.test', password: 'benchmark passphrase here' };
  const registered = await fetch(`${app.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
    body: JSON.stringify({ name: 'Bench', ...credentials }),
  });
  if (registered.status !== 201) throw new Error(`Registering the benchmark user answered ${registered.status}`);

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
  if (process.env.BENCH_ONLY !== 'tools') {
    const database = await benchEmbeddedDatabase();
    await benchHttp(database.binary);
    await benchLogin(database.binary);
  }
  await benchTools();
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
