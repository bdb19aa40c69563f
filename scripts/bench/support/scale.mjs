// `BENCH_ONLY=scale`: issue 27's goal-1 data set (scale-seed.mjs) at 1 000, 10 000 and 100 000
// users on each engine (FerretDB on SQLite, the embedded default, and FerretDB on PostgreSQL when
// the machine has a PostgreSQL server), and the latency of the requests people make, one at a time,
// through the production app. One table per engine, users across, so growth shows at a glance.
//
//   BENCH_SCALE_USERS    sizes, ascending (default 1000,10000,100000)
//   BENCH_SCALE_ENGINES  sqlite,postgresql (default both; postgresql only where it is installed)
//   BENCH_SCALE_SAMPLES  samples per request and size (default 40; fewer when a request is slow)
//   BENCH_SCALE_LOOKUP_INDEXES=off  without the launcher's lookup indexes (the "before" of issue 27)
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ADMIN_EMAIL, AUTH_SECRET, appModels, licenceKeyMaker, SEED_PASSWORD, seedUsersTo, seededUser } from './scale-seed.mjs';

/** Database commands at least this slow are logged by the app (DATABASE_SLOW_MS) and listed per request. */
const SLOW_COMMAND_MS = 20;
/** Per request and size: stop sampling after this long (the slow requests of a big data set). */
const SAMPLE_BUDGET_MS = 20_000;
const MIN_SAMPLES = 3;

/** A browser: cookies kept between requests, the CSRF token sent on writes. */
export class Browser {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    this.jar = new Map();
    this.token = null;
  }

  async request(method, path, body) {
    const headers = { cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ') };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.token) headers['x-csrf-token'] = this.token;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    });
    for (const value of response.headers.getSetCookie()) {
      const [pair] = value.split(';');
      this.jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return { status: response.status, text: await response.text() };
  }

  async csrf() {
    this.token = JSON.parse((await this.request('GET', '/api/auth/csrf')).text).token;
  }

  async signIn(email) {
    await this.csrf();
    const answer = await this.request('POST', '/api/auth/login', { email, password: SEED_PASSWORD });
    if (answer.status !== 200) throw new Error(`Signing in ${email} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    await this.csrf();
  }
}

/** The seeded account nearest to `i` that may sign in (scale-seed.mjs leaves some unconfirmed or disabled). */
const activeUserIndex = (i) => (i % 50 === 49 || i % 200 === 199 ? i - 1 : i);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/** Runs `sample(n)` one at a time until SAMPLES or the time budget; answers p50/p99 and failures. */
async function sampleRequest(samples, sample) {
  const latencies = [];
  const failures = new Map();
  const started = performance.now();
  for (let n = 0; n < samples; n += 1) {
    if (n >= MIN_SAMPLES && performance.now() - started > SAMPLE_BUDGET_MS) break;
    const begin = performance.now();
    let outcome;
    try {
      outcome = await sample(n);
    } catch (error) {
      outcome = { ok: false, why: error.name === 'TimeoutError' ? 'timeout' : error.message.slice(0, 60) };
    }
    const elapsed = performance.now() - begin;
    if (outcome.ok) latencies.push(elapsed);
    else failures.set(outcome.why, (failures.get(outcome.why) ?? 0) + 1);
  }
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    p50: latencies.length ? quantile(latencies, 0.5) : null,
    p99: latencies.length ? quantile(latencies, 0.99) : null,
    failures: [...failures].map(([why, count]) => `${count} × ${why}`).join(', '),
  };
}

const expectStatus = (expected) => (answer) =>
  answer.status === expected ? { ok: true } : { ok: false, why: `${answer.status} ${answer.text.slice(0, 50)}` };

/**
 * Collects the app's slow-command log lines (`DatabaseSlow` … `<ms> ms: <shape>`); `summary()`
 * answers the shapes seen since `clear()`, the costliest first, with their count and median time.
 */
function watchSlowCommands(child) {
  let seen = new Map();
  let partial = '';
  child.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      const match = /DatabaseSlow\]?\s*(\d+) ms: (.*)$/.exec(line); // NO_COLOR=1: plain text
      if (!match) continue;
      const times = seen.get(match[2]) ?? [];
      times.push(Number(match[1]));
      seen.set(match[2], times);
    }
  });
  return {
    clear: () => (seen = new Map()),
    summary: () =>
      [...seen]
        .map(([shape, times]) => ({ shape, times: times.sort((a, b) => a - b), total: times.reduce((a, b) => a + b, 0) }))
        .sort((a, b) => b.total - a.total)
        .slice(0, 3)
        .map(({ shape, times }) => `${shape} (${times.length} × ${times[Math.floor(times.length / 2)]} ms)`)
        .join('; '),
  };
}

function dirSize(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? dirSize(full) : statSync(full).size;
  }
  return total;
}
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/**
 * The requests measured at every size, in the table's order. Each `sample(n)` makes one request
 * (the n-th of its kind) and says whether it answered as it should.
 */
function requestsOf({ admin, users, anonymous, licence, userIds, size, runId }) {
  const pick = (n) => users[n % users.length];
  const someone = (n) => seededUser(activeUserIndex((n * 7919 + 13) % size), Date.now());
  return [
    {
      name: 'sign-in (POST /api/auth/login)',
      hashed: true,
      sample: async (n) => {
        const browser = new Browser(anonymous.baseUrl);
        browser.token = anonymous.token;
        browser.jar = new Map(anonymous.jar);
        return expectStatus(200)(await browser.request('POST', '/api/auth/login', { email: someone(n).email, password: SEED_PASSWORD }));
      },
    },
    { name: 'GET /api/auth/me', sample: async (n) => expectStatus(200)(await pick(n).request('GET', '/api/auth/me')) },
    { name: 'GET /dashboard/lounge (page)', sample: async (n) => expectStatus(200)(await pick(n).request('GET', '/dashboard/lounge')) },
    { name: 'GET /api/billing/orders', sample: async (n) => expectStatus(200)(await pick(n).request('GET', '/api/billing/orders')) },
    { name: 'GET /api/licences', sample: async (n) => expectStatus(200)(await pick(n).request('GET', '/api/licences')) },
    {
      name: 'PATCH /api/profile (name)',
      sample: async (n) => expectStatus(200)(await pick(n).request('PATCH', '/api/profile', { name: `Renamed ${runId} ${n}` })),
    },
    {
      name: 'POST /api/auth/forgot-password',
      sample: async (n) => expectStatus(202)(await anonymous.request('POST', '/api/auth/forgot-password', { email: someone(n).email })),
    },
    {
      name: 'POST /api/auth/register',
      hashed: true,
      sample: async (n) =>
        expectStatus(202)(
          await anonymous.request('POST', '/api/auth/register', {
            name: 'New Person',
            email: `new-${runId}-${size}-${n}@bench.example`,
            password: SEED_PASSWORD,
          }),
        ),
    },
    {
      name: 'POST /api/newsletter/subscribe',
      sample: async (n) =>
        expectStatus(202)(
          await anonymous.request('POST', '/api/newsletter/subscribe', {
            email: `reader-${runId}-${size}-${n}@bench.example`,
            consent: true,
          }),
        ),
    },
    {
      name: 'POST /api/v1/licenses/activate',
      sample: async (n) => {
        const answer = await anonymous.request('POST', '/api/v1/licenses/activate', {
          key: licence.key,
          product: licence.product,
          fingerprint: licence.fingerprint(n),
          name: 'Bench device',
        });
        return answer.status === 200 && JSON.parse(answer.text).valid
          ? { ok: true }
          : { ok: false, why: `${answer.status} ${answer.text.slice(0, 60)}` };
      },
    },
    {
      name: 'POST /api/v1/licenses/validate (after a write)',
      sample: async (n) => {
        // The activation just before empties the read cache: this is the database path.
        await anonymous.request('POST', '/api/v1/licenses/activate', {
          key: licence.key,
          product: licence.product,
          fingerprint: licence.fingerprint(1000 + n),
        });
        const begin = performance.now();
        const answer = await anonymous.request('POST', '/api/v1/licenses/validate', {
          key: licence.key,
          product: licence.product,
          fingerprint: licence.fingerprint(1000 + n),
        });
        licence.validateMs.push(performance.now() - begin);
        return answer.status === 200 ? { ok: true } : { ok: false, why: String(answer.status) };
      },
      timedInside: true,
    },
    { name: 'GET /api/admin/users (first page)', sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/users')) },
    {
      name: 'GET /api/admin/users?q=… (one person)',
      sample: async (n) => expectStatus(200)(await admin.request('GET', `/api/admin/users?q=${encodeURIComponent(`u${someone(n).i}.`)}`)),
    },
    {
      name: 'GET /api/admin/users?q=… (a tenth of them)',
      sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/users?q=hopper')),
    },
    { name: 'GET /api/admin/users?page=50', sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/users?page=50')) },
    {
      name: 'GET /api/admin/users/:id',
      sample: async (n) => expectStatus(200)(await admin.request('GET', `/api/admin/users/${userIds[n % userIds.length]}`)),
    },
    { name: 'GET /admin/users (page)', sample: async () => expectStatus(200)(await admin.request('GET', '/admin/users')) },
    { name: 'GET /api/admin/overview', sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/overview')) },
    {
      name: 'GET /api/admin/newsletter/subscribers',
      sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/newsletter/subscribers')),
    },
    {
      name: 'GET /api/admin/newsletter/subscribers?q=…',
      sample: async (n) =>
        expectStatus(200)(await admin.request('GET', `/api/admin/newsletter/subscribers?q=reader${(n * 7919) % (3 * size)}@`)),
    },
    {
      name: 'GET /api/admin/billing/events',
      sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/billing/events')),
    },
    {
      name: 'GET /api/admin/analytics?preset=90d',
      sample: async () => expectStatus(200)(await admin.request('GET', '/api/admin/analytics?preset=90d')),
    },
  ];
}

/** Starts the database of one engine: FerretDB on SQLite files, or on a fresh PostgreSQL server. */
async function startEngine(ctx, engine, lookupIndexes) {
  const launcher = await import(pathToFileURL(join(ctx.root, 'dist/app/src/database/embedded-database.js')).href);
  const dataDir = await ctx.tempDir(`hitscope-bench-scale-${engine}-`);
  let postgresql = null;
  if (engine === 'postgresql') {
    const { startPostgresql } = await import(pathToFileURL(join(ctx.root, 'scripts/postgresql.mjs')).href);
    // PostgreSQL's own durability settings (fsync on), as SQLite keeps its own: like with like.
    postgresql = await startPostgresql({ log: () => undefined, durable: true });
    ctx.services.add(postgresql);
  }
  const database = await launcher.startEmbeddedDatabase({
    dataDir,
    binary: ctx.binary,
    postgresqlUrl: postgresql?.url,
    lookupIndexes,
    log: () => undefined,
  });
  ctx.databases.add(database);
  // SQLite: the app's single connection (its default on FerretDB); PostgreSQL: the pool a
  // several-instance deployment has (test:server:pool runs the same).
  const options = engine === 'postgresql' ? '?maxPoolSize=10' : '';
  return {
    database,
    postgresql,
    uri: `${database.uri.replace(/\/$/, '')}/hitscope_bench_scale${options}`,
    onDisk: () => dirSize(postgresql ? postgresql.dataDir : dataDir),
    async stop() {
      await database.stop();
      ctx.databases.delete(database);
      if (postgresql) {
        await postgresql.stop();
        ctx.services.delete(postgresql);
      }
    },
  };
}

export async function benchScale(ctx) {
  const sizes = (process.env.BENCH_SCALE_USERS ?? '1000,10000,100000').split(',').map(Number);
  if (sizes.some((size, index) => !Number.isInteger(size) || size < 100 || size > 100_000 || (index && size <= sizes[index - 1]))) {
    throw new Error('BENCH_SCALE_USERS must be ascending whole numbers from 100 to 100000');
  }
  const samples = ctx.positiveInt('BENCH_SCALE_SAMPLES', 40);
  const lookupIndexes = (process.env.BENCH_SCALE_LOOKUP_INDEXES ?? 'on') !== 'off';
  const { findPostgresqlBin } = await import(pathToFileURL(join(ctx.root, 'scripts/postgresql.mjs')).href);
  let engines = (process.env.BENCH_SCALE_ENGINES ?? 'sqlite,postgresql').split(',').map((engine) => engine.trim());
  if (engines.includes('postgresql') && !findPostgresqlBin()) {
    console.log('No PostgreSQL server on this machine (apt-get install postgresql): FerretDB on SQLite only.');
    engines = engines.filter((engine) => engine !== 'postgresql');
  }
  const { default: mongoose } = await import('mongoose');
  const argon2 = await import('@node-rs/argon2');
  const { ARGON2_PARAMS } = await import(pathToFileURL(join(ctx.root, 'dist/app/src/auth/password-hasher.service.js')).href);
  const passwordHash = await argon2.hash(SEED_PASSWORD, ARGON2_PARAMS);
  const hashTimes = [];
  for (let n = 0; n < 5; n += 1) {
    const begin = performance.now();
    await argon2.verify(passwordHash, SEED_PASSWORD);
    hashTimes.push(performance.now() - begin);
  }
  const hashMs = hashTimes.sort((a, b) => a - b)[2];
  const runId = Date.now().toString(36);
  const makeKey = await licenceKeyMaker(ctx.root);
  const results = {};

  for (const engine of engines) {
    ctx.heading(`Scale: the goal-1 data set on FerretDB + ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`);
    console.log(
      `Lookup indexes of the launcher: ${lookupIndexes ? 'on' : 'off (BENCH_SCALE_LOOKUP_INDEXES=off)'}; load average ${ctx.loadAverage()}`,
    );
    const store = await startEngine(ctx, engine, lookupIndexes);
    const connection = await mongoose.createConnection(store.uri, { maxPoolSize: engine === 'postgresql' ? 4 : 1 }).asPromise();
    const models = await appModels(ctx.root, connection);
    const rows = {};
    const facts = {};
    let seeded = 0;
    try {
      for (const size of sizes) {
        const seedStarted = performance.now();
        const written = await seedUsersTo(models, { from: seeded, to: size, passwordHash, makeKey, now: Date.now() });
        seeded = size;
        const seedMs = performance.now() - seedStarted;
        console.log(
          `\n${size.toLocaleString('en-GB')} users: seeded in ${(seedMs / 1000).toFixed(1)} s (${Object.entries(written)
            .map(([name, count]) => `${count.toLocaleString('en-GB')} ${name}`)
            .join(', ')})`,
        );

        let app;
        try {
          app = await ctx.startApp(ctx.binary, {
            MONGODB_URI: store.uri,
            AUTH_SECRET,
            RATE_LIMIT_MULTIPLIER: '1000000',
            ADMIN_EMAILS: ADMIN_EMAIL,
            DATABASE_SLOW_MS: String(SLOW_COMMAND_MS),
            NO_COLOR: '1',
          });
        } catch (error) {
          // What an operator would see: the app does not start on this much data. Larger sizes will not either.
          facts[size] = {
            seedMs,
            startError:
              error.message
                .split('\n')
                .filter((line) => /failed to start|Error/.test(line))
                .pop() ?? error.message,
          };
          console.log(`The app did not start: ${facts[size].startError}`);
          break;
        }
        const slow = watchSlowCommands(app.child);
        try {
          const stats = await connection.db.command({ dbStats: 1 });
          facts[size] = {
            seedMs,
            startMs: app.startMs,
            dbStats: stats.totalSize ?? stats.storageSize + stats.indexSize,
            onDisk: store.onDisk(),
          };
          console.log(
            `App ready in ${(app.startMs / 1000).toFixed(1)} s; database: ${mib(facts[size].dbStats)} (dbStats totalSize), ${mib(facts[size].onDisk)} on disk; load average ${ctx.loadAverage()}`,
          );
          const admin = new Browser(app.baseUrl);
          await admin.signIn(ADMIN_EMAIL);
          const users = [];
          const userIds = [];
          for (let k = 0; k < 5; k += 1) {
            const person = seededUser(activeUserIndex(Math.floor(((k + 0.5) * size) / 5)), Date.now());
            const browser = new Browser(app.baseUrl);
            await browser.signIn(person.email);
            users.push(browser);
            userIds.push(JSON.parse((await browser.request('GET', '/api/auth/me')).text).id);
          }
          const anonymous = new Browser(app.baseUrl);
          await anonymous.csrf();
          // A licence for the first of them, granted as an administrator does, with room for every
          // device. When the grant itself fails (too slow on this much data), the licensing rows say so.
          const granted = await admin.request('POST', `/api/admin/users/${userIds[0]}/licences`, {
            planId: 'bench-grant',
            products: ['hitscope-for-browsers'],
            seats: 1000,
          });
          let mine = null;
          if (granted.status === 201 || granted.status === 200) {
            const owned = await users[0].request('GET', '/api/licences');
            if (owned.status === 200) mine = JSON.parse(owned.text).licences.find((entry) => entry.source === 'grant') ?? null;
          }
          if (!mine) console.log(`No licence to measure with: the grant answered ${granted.status}`);
          const licence = {
            key: mine?.key ?? 'HSB-00000-00000-00000-00000-0',
            product: mine?.product ?? 'hitscope-for-browsers',
            fingerprint: (n) =>
              (runId + size + 'f' + n)
                .padEnd(64, '0')
                .replace(/[^0-9a-f]/g, 'a')
                .slice(0, 64),
            validateMs: [],
          };

          for (const request of requestsOf({ admin, users, anonymous, licence, userIds, size, runId })) {
            slow.clear();
            const result = await sampleRequest(samples, request.sample);
            result.slowest = slow.summary();
            if (request.timedInside) {
              const sorted = [...licence.validateMs].sort((a, b) => a - b);
              Object.assign(result, { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) });
            }
            rows[request.name] ??= { hashed: request.hashed, bySize: {} };
            rows[request.name].bySize[size] = result;
            const cell = result.n ? `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms (${result.n})` : 'no answer';
            console.log(`  ${request.name.padEnd(48)} ${cell}${result.failures ? `; failed: ${result.failures}` : ''}`);
            if (result.slowest) console.log(`    slow commands: ${result.slowest}`);
          }
        } finally {
          await ctx.stopChild(app.child);
        }
      }
    } finally {
      await connection.close();
      await store.stop();
    }
    results[engine] = { rows, facts };
    printTable(ctx, engine, sizes, rows, facts, hashMs);
  }
  return results;
}

function printTable(ctx, engine, sizes, rows, facts, hashMs) {
  ctx.heading(`Scale, FerretDB + ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: p50 / p99 in ms, one request at a time`);
  const cell = (result, hashed) => {
    if (!result?.n) return 'no answer';
    const text = `${result.p50.toFixed(0)} / ${result.p99.toFixed(0)}`;
    return hashed
      ? `${text} (−hash ${Math.max(0, result.p50 - hashMs).toFixed(0)} / ${Math.max(0, result.p99 - hashMs).toFixed(0)})`
      : text;
  };
  const header = ['request', ...sizes.map((size) => `${size.toLocaleString('en-GB')} users`)];
  const body = Object.entries(rows).map(([name, row]) => [name, ...sizes.map((size) => cell(row.bySize[size], row.hashed))]);
  body.push([
    'app start-up (s)',
    ...sizes.map((size) => (facts[size]?.startError ? 'did not start' : facts[size] ? (facts[size].startMs / 1000).toFixed(1) : '—')),
  ]);
  body.push([
    'database (dbStats / on disk)',
    ...sizes.map((size) => (facts[size]?.dbStats ? `${mib(facts[size].dbStats)} / ${mib(facts[size].onDisk)}` : '—')),
  ]);
  const widths = header.map((_, column) => Math.max(...[header, ...body].map((line) => line[column].length)));
  const format = (line) => line.map((value, column) => (column ? value.padStart(widths[column]) : value.padEnd(widths[column]))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of body) console.log(format(line));
  console.log(`(−hash: minus one argon2id verification measured here, ${hashMs.toFixed(0)} ms; sign-in's goal is that plus < 50 ms)`);
}
