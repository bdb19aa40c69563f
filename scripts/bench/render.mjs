#!/usr/bin/env node
// SSR cost per request: the production build on the embedded database, `/` and `/dashboard/lounge`
// (signed in) under autocannon, CPU µs per request read from /proc/<pid>/stat of the app process.
// `node scripts/bench/render.mjs [--cpu-prof]` (run `npm run build` first). With --cpu-prof the app
// writes a V8 CPU profile of the `/` load into test-results/render-prof/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const HOST = '127.0.0.1';
const CONNECTIONS = 32;
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const profile = process.argv.includes('--cpu-prof');
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS) * 1000;
}
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

const tmp = mkdtempSync(join(os.tmpdir(), 'hitscope-render-bench-'));
const launcher = await import(pathToFileURL(join(root, 'dist/app/src/database/embedded-database.js')).href);
const binary = await launcher.ensureEmbeddedDatabaseBinary(() => undefined);
const database = await launcher.startEmbeddedDatabase({ dataDir: join(tmp, 'db'), binary, log: () => undefined });
const uri = `${database.uri.replace(/\/$/, '')}/hitscope_render_bench`;

const port = await freePort();
const baseUrl = `http://${HOST}:${port}`;
const args = ['--enable-source-maps'];
if (profile) args.push('--cpu-prof', `--cpu-prof-dir=${join(root, 'test-results/render-prof')}`);
const app = spawn(process.execPath, [...args, 'dist/app/src/main.js'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'pipe'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    HOST,
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: join(tmp, 'app'),
    MONGODB_URI: uri,
    LOG_LEVEL: 'warn',
  },
});
let output = '';
app.stderr.on('data', (chunk) => {
  output = (output + chunk).slice(-4000);
});
try {
  for (let i = 0; ; i += 1) {
    const ready = await fetch(`${baseUrl}/health/ready`).catch(() => null);
    if (ready?.status === 200) break;
    if (i > 600) throw new Error(`app not ready:\n${output}`);
    await sleep(100);
  }

  // Sign in the way scripts/bench.mjs does: register, follow the mailed link.
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
    body: JSON.stringify({ name: 'Bench', email: 'bench@example.com', password: 'benchmark passphrase here' }),
  });
  keep(registered);
  const { MongoClient } = await import('mongodb');
  const client = await MongoClient.connect(uri, { maxPoolSize: 1 });
  const message = await client.db().collection('mail_outbox').findOne({ to: 'bench@example.com' });
  await client.close();
  const link = /\/api\/auth\/verify-email\?token=[\w-]+/.exec(message?.text ?? '')?.[0];
  const confirmed = await fetch(`${baseUrl}${link}`, { headers: { cookie: cookie() }, redirect: 'manual' });
  keep(confirmed);
  if (!jar.has('hs_session')) throw new Error('not signed in');

  const { default: autocannon } = await import('autocannon');
  const targets = profile
    ? [['/', {}]]
    : [
        ['/', {}],
        ['/dashboard/lounge', { cookie: cookie() }],
      ];
  for (const [path, headers] of targets) {
    const check = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
    if (check.status !== 200) throw new Error(`${path} answered ${check.status}`);
    await autocannon({ url: `${baseUrl}${path}`, headers, connections: CONNECTIONS, duration: WARMUP_S });
    const before = cpuMs(app.pid);
    const result = await autocannon({ url: `${baseUrl}${path}`, headers, connections: CONNECTIONS, duration: DURATION_S });
    const used = cpuMs(app.pid) - before;
    console.log(
      `${path.padEnd(20)} ${result.requests.total} requests, ${result.requests.mean.toFixed(0)} req/s, ` +
        `p50 ${result.latency.p50} ms, non-2xx ${result.non2xx}, CPU ${((used * 1000) / result.requests.total).toFixed(0)} µs/request`,
    );
  }
} finally {
  app.kill('SIGTERM');
  await new Promise((resolve) => app.once('exit', resolve));
  await database.stop();
  rmSync(tmp, { recursive: true, force: true });
}
