// HAR analyser in the browser: the real page (/dashboard/tools/hitscope-for-browsers) in Debian's
// Chromium against the production app, with the ~100 MB / 20 000-entry HAR of scripts/bench/har.mjs
// chosen through the page's file input, then a 1 GB one (HAR_BENCH_LARGE_MB, written to a temporary
// folder and deleted after: time to results, progress reports, renderer memory, opening a hit). It times the way from the input's change event to the
// results summary on screen, with the worker's own read/parse/analyse split; the main thread's long
// tasks meanwhile (a `longtask` PerformanceObserver); the page's JS heap (CDP Performance.getMetrics;
// the worker has a heap of its own, so the renderer process's peak RSS, read from /proc, is printed
// too); and how long filter changes take to update the list. Numbers only, no thresholds.
//
// HAR_BENCH_TRACE=<file.json> also records a Chromium trace of the run (open it in the Performance
// panel) and prints what the longest main-thread tasks spent their time on; HAR_BENCH_PROFILE=1
// samples the main thread with the V8 profiler and prints its longest busy stretches with the
// functions they ran, mapped to the sources through the build's source maps. Both slow the run down.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { buildLargeHar, writeLargeHar } from '../fixtures/har-large.mjs';

export const title = 'HAR analyser in Chromium (100 MB, then 1 GB)';

const CHROMIUM = '/usr/bin/chromium';
const HOST = '127.0.0.1';
const PATH = '/dashboard/tools/hitscope-for-browsers';
const ENTRIES = 20_000;
const MB = 1024 * 1024;
// Bounds for a busy machine; a passing run does not wait for them.
const READY_TIMEOUT_MS = 90_000;
const ANALYSIS_TIMEOUT_MS = 5 * 60_000;
const FILTER_TIMEOUT_MS = 60_000;

const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const millis = (ms) => `${Math.round(ms).toLocaleString('en-GB')} ms`;
const megabytes = (bytes) => `${(bytes / MB).toFixed(0)} MB`;

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

/**
 * An embedded database of its own in `dataDir` (the benchmark reads the confirmation e-mail from the
 * app's outbox in it: its app has no SMTP server), stopped by the caller.
 */
async function startDatabase(root, dataDir) {
  const launcher = await import(pathToFileURL(join(root, 'dist/app/src/database/embedded-database.js')).href);
  const binary = process.env.EMBEDDED_DB_BINARY?.trim() || (await launcher.ensureEmbeddedDatabaseBinary(() => undefined));
  const database = await launcher.startEmbeddedDatabase({ dataDir, binary, log: () => undefined });
  return { database, binary, uri: `${database.uri.replace(/\/$/, '')}/hitscope_bench_har` };
}

/**
 * Registers a user as a person does (the form, then the link mailed to the address, read from the
 * outbox), which signs `context` in.
 */
async function signUp(context, uri) {
  const csrf = await context.request.get('/api/auth/csrf');
  if (csrf.status() !== 200) throw new Error(`GET /api/auth/csrf answered ${csrf.status()}`);
  const { token } = await csrf.json();
  const word = Math.random().toString(36).slice(2, 10);
  const email = `har-bench-${word}@hitscope.test`;
  const registered = await context.request.post('/api/auth/register', {
    data: { name: 'HAR bench', email, password: `har benchmark ${word} passphrase` },
    headers: { 'x-csrf-token': token },
  });
  if (registered.status() !== 202)
    throw new Error(`Registering the benchmark user answered ${registered.status()}: ${await registered.text()}`);
  const { MongoClient } = await import('mongodb');
  const client = await MongoClient.connect(uri, { maxPoolSize: 1 });
  const message = await client
    .db()
    .collection('mail_outbox')
    .findOne({ to: email }, { sort: { createdAt: -1 } });
  await client.close();
  const link = /\/api\/auth\/verify-email\?token=[\w-]+/.exec(message?.text ?? '')?.[0];
  if (!link) throw new Error(`No confirmation link was mailed to ${email}`);
  const confirmed = await context.request.get(link, { maxRedirects: 0 });
  if (confirmed.status() !== 302) throw new Error(`The confirmation link answered ${confirmed.status()}`);
}

/** The production app on a free loopback port, on the database at `uri`. */
async function startApp(root, dataDir, { uri, binary }) {
  const port = await freePort();
  const baseUrl = `http://${HOST}:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST,
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    // One sign-up and one page: far below the limits, but the run must never depend on them.
    RATE_LIMIT_MULTIPLIER: '1000',
    LOG_LEVEL: 'warn',
  };
  // Always the benchmark's own embedded database in the throw-away folder, never a real one.
  env.MONGODB_URI = uri;
  env.EMBEDDED_DB_BINARY = binary;
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/app/src/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The app exited (${child.exitCode ?? child.signalCode}) during start-up:\n${output}`);
    }
    const ready = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The app was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await sleep(100);
  }
  return { child, baseUrl, startMs: performance.now() - started };
}

/** SIGTERM (the app stops its database), SIGKILL after 10 s. */
function stopApp(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Every Chromium renderer process started below this one (Linux /proc): its resident memory now and at its peak (VmHWM). */
function renderers() {
  const found = [];
  const visit = (pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('--type=renderer')) {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
        const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
        if (rss && hwm) found.push({ pid, rss: Number(rss[1]) * 1024, hwm: Number(hwm[1]) * 1024 });
      }
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
        if (children) for (const child of children.split(/\s+/)) visit(Number(child));
      }
    } catch {
      // the process is gone, or this is not Linux
    }
  };
  visit(process.pid);
  return found;
}

/** Resident memory of every Chromium renderer process started below this one. */
const rendererRss = () => renderers().map((renderer) => renderer.rss);

/**
 * Installed in the page just before the upload. Records the long tasks; when the file input and the
 * filters change (capture listeners, so before React sees the event); when the worker's `done`
 * message arrives, with the worker's own timings (the page creates its Worker when a file is chosen,
 * so wrapping the constructor here observes it without touching the page's code); and, for the
 * awaited state, when it is in the DOM and when the frame after it starts.
 */
function instrumentPage() {
  const bench = { longTasks: [], fileSetAt: null, doneAt: null, timings: null, waits: {}, keystrokes: [], progress: [] };
  Object.assign(window, { __harBench: bench });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask' });
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        // Chromium deserialises a message on the first read of event.data: this listener, which
        // runs before the page's own, pays that structured-clone cost for it, and times it.
        const arrived = performance.now();
        if (event.data?.type === 'progress') {
          const { stage, done, total } = event.data.progress;
          bench.progress.push({ at: arrived, stage, done, total });
        }
        if (event.data?.type !== 'done') return;
        bench.doneAt = arrived;
        bench.deserialiseMs = performance.now() - arrived;
        bench.timings = event.data.timings;
        bench.doneRows = event.data.rows.length;
        bench.doneWarnings = event.data.warnings.length;
      });
    }
  };
  const started = (event) => {
    const now = performance.now();
    if (event.target instanceof HTMLInputElement && event.target.type === 'file') bench.fileSetAt = now;
    if (event.type === 'input' && event.target instanceof HTMLInputElement && event.target.type === 'search') {
      // React renders a discrete event's update before the event returns: the frame requested here
      // is the first one that can show the typed character.
      const keystroke = { since: now, frame: null };
      bench.keystrokes.push(keystroke);
      requestAnimationFrame(() => {
        keystroke.frame = performance.now();
      });
    }
    for (const wait of Object.values(bench.waits)) wait.since ??= now;
  };
  document.addEventListener('change', started, true);
  document.addEventListener('input', started, true);
  document.addEventListener('click', started, true);
  new MutationObserver(() => {
    for (const wait of Object.values(bench.waits)) {
      if (wait.inDomAt !== null || wait.since === null) continue;
      const element = document.querySelector(wait.selector);
      if (!element || !new RegExp(wait.text).test(element.textContent ?? '')) continue;
      wait.inDomAt = performance.now();
      // The frame after the commit is the one that shows it.
      requestAnimationFrame(() => {
        wait.shownAt = performance.now();
      });
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}

/** Arms a wait for `selector` to read `text` (a RegExp source) after the next change, input or click. */
function armWait(page, name, selector, text) {
  return page.evaluate(
    ([key, wait]) => {
      window.__harBench.waits[key] = { ...wait, since: null, inDomAt: null, shownAt: null };
    },
    [name, { selector, text }],
  );
}

/** The armed wait once it is on screen: times relative to the triggering event, long tasks between. */
async function finishWait(page, name, timeout) {
  await page.waitForFunction((key) => window.__harBench.waits[key].shownAt !== null, name, { timeout, polling: 100 });
  return page.evaluate((key) => {
    const bench = window.__harBench;
    const wait = bench.waits[key];
    const tasks = bench.longTasks.filter((task) => task.start + task.duration >= wait.since && task.start <= wait.shownAt);
    return {
      since: wait.since,
      inDomMs: wait.inDomAt - wait.since,
      shownMs: wait.shownAt - wait.since,
      longTasks: tasks.map((task) => task.duration),
      longTaskStarts: tasks.map((task) => task.start - wait.since),
    };
  }, name);
}

async function heapMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return {
    used: value('JSHeapUsedSize'),
    total: value('JSHeapTotalSize'),
    taskSeconds: value('TaskDuration'),
    scriptSeconds: value('ScriptDuration'),
  };
}

/** The main-thread tasks of a Chromium trace longer than `minMs`, each with its costliest parts. */
function summariseTrace(trace, mapFrame, minMs, limit = 5) {
  const events = trace.traceEvents ?? trace;
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (!main) return [];
  const onMain = events.filter(
    (event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && typeof event.dur === 'number',
  );
  const tasks = onMain
    .filter((event) => event.name === 'RunTask' && event.dur >= minMs * 1000)
    .sort((a, b) => b.dur - a.dur)
    .slice(0, limit);
  const label = (event) => {
    const data = event.args?.data ?? {};
    // The timeline's script positions are 1-based, the profiler's (and the source maps') 0-based.
    if (event.name === 'FunctionCall')
      return `FunctionCall ${mapFrame({ ...data, lineNumber: data.lineNumber - 1, columnNumber: data.columnNumber - 1 })}`;
    return data.type ? `${event.name} ${data.type}` : event.name;
  };
  return tasks.map((task) => {
    const parts = onMain
      .filter((event) => event !== task && event.ts >= task.ts && event.ts + event.dur <= task.ts + task.dur)
      .filter((event) => event.dur >= Math.max(5_000, task.dur * 0.05))
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 6)
      .map((event) => `${label(event)} ${millis(event.dur / 1000)}`);
    return { ms: task.dur / 1000, parts };
  });
}

/** Where a profiled function comes from, through the build's source maps (dist/client/assets/*.map). */
function sourceMapper(root) {
  const maps = new Map();
  const short = (source) => source.replace(/^.*?(node_modules\/(?:@[^/]+\/)?[^/]+|client\/|lib\/)/, '$1').replace(/^node_modules\//, '');
  return ({ functionName, url, lineNumber, columnNumber }) => {
    if (!url) return functionName || '(native)';
    const pathname = URL.canParse(url) ? new URL(url).pathname : '';
    if (!maps.has(pathname)) {
      const file = join(root, 'dist/client', `${pathname}.map`);
      maps.set(pathname, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null);
    }
    const entry = maps.get(pathname)?.findEntry(lineNumber, columnNumber);
    if (!entry?.originalSource) return `${functionName || '(anonymous)'} ${pathname}:${lineNumber + 1}`;
    return `${entry.name || functionName || '(anonymous)'} ${short(entry.originalSource)}:${entry.originalLine + 1}`;
  };
}

/**
 * The main thread's busy stretches in a V8 CPU profile (samples between two idle ones) of at least
 * `minMs`, longest first, each with the functions it spent its time in: self time, and the time
 * inside each of the app's own functions (client/ and lib/ sources, callees included).
 */
function summariseProfile(profile, mapFrame, minMs, limit = 5) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const labels = new Map();
  const label = (node) => {
    if (!labels.has(node.id)) labels.set(node.id, mapFrame(node.callFrame));
    return labels.get(node.id);
  };
  const stretches = [];
  let current = null;
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    at += profile.timeDeltas[index] ?? 0;
    const lasting = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[index]);
    if (node.callFrame.functionName === '(idle)') {
      if (current) stretches.push(current);
      current = null;
      continue;
    }
    current ??= { startMs: (at - profile.startTime) / 1000, ms: 0, self: new Map(), inside: new Map() };
    current.ms += lasting;
    const self = label(node);
    current.self.set(self, (current.self.get(self) ?? 0) + lasting);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const frame = label(byId.get(id));
      if (seen.has(frame) || !/ (client|lib)\//.test(frame)) continue;
      seen.add(frame);
      current.inside.set(frame, (current.inside.get(frame) ?? 0) + lasting);
    }
  }
  if (current) stretches.push(current);
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([frame, ms]) => `${frame} ${millis(ms)}`);
  return stretches
    .filter((stretch) => stretch.ms >= minMs)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit)
    .map((stretch) => ({ ...stretch, self: top(stretch.self, 4), inside: top(stretch.inside, 6) }));
}

function printTable(rows) {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
}

const describeTasks = (durations) =>
  durations.length
    ? `longest ${millis(Math.max(...durations))}, ${durations.length} long task${durations.length === 1 ? '' : 's'} (${millis(durations.reduce((a, b) => a + b, 0))} in all)`
    : 'no long task';

/**
 * A capture of about `sizeMb` MB (written to `work` piece by piece, deleted after), 2 500 entries
 * (2 000 analytics hits) per 50 MB as in a long session whose size is mostly response bodies: time
 * to the results on screen, the worker's read/parse/analyse split, the progress reports the page
 * received (and how far the last one before the end had got), and the renderer's memory.
 */
async function largeRun({ context, work, sizeMb }) {
  const entries = Math.max(10, Math.round((sizeMb / 50) * 2_500));
  const file = join(work, `large-${sizeMb}mb.har`);
  const generated = performance.now();
  const { bytes, hits } = await writeLargeHar(file, { entries, targetBytes: sizeMb * MB });
  console.log(
    `\nGenerated a ${(bytes / MB).toFixed(0)} MB HAR: ${entries.toLocaleString('en-GB')} entries, ${hits.toLocaleString('en-GB')} analytics hits expected (${seconds(performance.now() - generated)})`,
  );
  try {
    const page = await context.newPage();
    await page.goto(PATH);
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached', timeout: 30_000 });
    await page.getByRole('heading', { name: 'Drop a HAR file here' }).waitFor();
    await page.evaluate(instrumentPage);
    const before = renderers();
    const rssBefore = Math.max(0, ...before.map((renderer) => renderer.rss));
    let peakRss = rssBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakRss = Math.max(peakRss, ...rendererRss());
        await sleep(100);
      }
    })();
    await armWait(page, 'summary', '[data-testid="har-hit-count"]', `^${hits.toLocaleString('en-GB')} analytics hits$`);
    const chosen = performance.now();
    await page.getByLabel('HAR file').setInputFiles(file);
    const upload = await finishWait(page, 'summary', ANALYSIS_TIMEOUT_MS);
    const wallMs = performance.now() - chosen;
    sampling = false;
    await sampler;
    const after = renderers();
    const { timings, progress } = await page.evaluate(() => window.__harBench);
    const reading = progress.filter((report) => report.stage === 'reading');
    const moving = reading.filter((report) => report.done > 0 && report.done < report.total);
    const gaps = reading.slice(1).map((report, index) => report.at - reading[index].at);
    printTable([
      ['file', `${(bytes / MB).toFixed(0)} MB, ${entries.toLocaleString('en-GB')} entries, ${hits.toLocaleString('en-GB')} hits`],
      [
        'change event → summary on screen (next frame)',
        `${millis(upload.shownMs)} (setInputFiles → seen by Playwright: ${millis(wallMs)})`,
      ],
      ['  in the worker: read / parse / analyse', `${millis(timings.readMs)} / ${millis(timings.parseMs)} / ${millis(timings.analyseMs)}`],
      [
        'progress reports received while reading',
        `${reading.length} (${moving.length} between 0 and 100 %; the last before 100 %: ${moving.length ? ((moving[moving.length - 1].done / moving[moving.length - 1].total) * 100).toFixed(1) : '—'} %; longest gap ${millis(Math.max(0, ...gaps))}); ${progress.length - reading.length} for checking`,
      ],
      ['main thread during the analysis', describeTasks(upload.longTasks)],
      [
        'renderer process RSS before / peak sampled / after',
        `${megabytes(rssBefore)} / ${megabytes(peakRss)} / ${megabytes(Math.max(0, ...after.map((renderer) => renderer.rss)))} (page and worker)`,
      ],
      ['renderer process peak RSS (VmHWM, the whole life of the page)', megabytes(Math.max(0, ...after.map((renderer) => renderer.hwm)))],
    ]);
    // The worker keeps a large file's hits light and decodes one again when it is opened: the first
    // hit of the list, until its parameters are on screen.
    const opened = performance.now();
    await page.getByRole('list', { name: 'Analytics hits' }).getByRole('button').first().click();
    const parameters = page.locator('.har-detail').getByRole('table', { name: 'Decoded parameters' }).getByRole('row');
    await parameters.nth(1).waitFor({ timeout: FILTER_TIMEOUT_MS });
    printTable([
      ['first hit opened → its parameters on screen', `${millis(performance.now() - opened)} (${(await parameters.count()) - 1} rows)`],
    ]);
    await page.close();
  } finally {
    await rm(file, { force: true });
  }
}

export default async function ({ root }) {
  if (!existsSync(CHROMIUM)) {
    console.log(`Skipped: no Chromium at ${CHROMIUM} (Debian package "chromium"); this benchmark never downloads a browser.`);
    return;
  }
  const { chromium } = await import('@playwright/test');
  const work = await mkdtemp(join(tmpdir(), 'hitscope-bench-har-browser-'));
  let app = null;
  let browser = null;
  let db = null;
  // Last resort when the benchmark process exits underneath (SIGINT, the hard time limit): the app
  // must not outlive it (its database stops with it: the launcher watches the app's stdin pipe).
  const onExit = () => {
    app?.child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  try {
    const generated = performance.now();
    const file = join(work, `large-${ENTRIES}.har`);
    let bytes;
    let expectedHits;
    {
      const large = buildLargeHar({ entries: ENTRIES, targetBytes: 100 * MB });
      bytes = Buffer.byteLength(large.text);
      expectedHits = large.hits;
      await writeFile(file, large.text);
    }
    console.log(
      `Generated a ${(bytes / MB).toFixed(1)} MB HAR: ${ENTRIES} entries, ${expectedHits} analytics hits expected (${seconds(performance.now() - generated)})`,
    );

    db = await startDatabase(root, join(work, 'db'));
    app = await startApp(root, join(work, 'data'), db);
    console.log(`Production app ready in ${seconds(app.startMs)} at ${app.baseUrl}`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    console.log(`Chromium ${browser.version()} (headless)`);
    const context = await browser.newContext({ baseURL: app.baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-GB' });

    await signUp(context, db.uri);

    const page = await context.newPage();
    await page.goto(PATH);
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached', timeout: 30_000 });
    await page.getByRole('heading', { name: 'Drop a HAR file here' }).waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.evaluate(instrumentPage);
    const before = await heapMetrics(cdp);
    const rssBefore = Math.max(0, ...rendererRss());

    const tracePath = process.env.HAR_BENCH_TRACE;
    const profiling = Boolean(process.env.HAR_BENCH_PROFILE);
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    if (tracePath) {
      await browser.startTracing(page, {
        path: tracePath,
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'disabled-by-default-devtools.timeline.stack',
          'v8.execute',
          'v8',
        ],
      });
    }

    // The page's heap and the renderer's memory, sampled while the analysis runs (a CDP call waits
    // while the main thread is busy, so the samples are at most a few per second).
    let peakHeap = before.used;
    let peakRss = rssBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakRss = Math.max(peakRss, ...rendererRss());
        const metrics = await heapMetrics(cdp).catch(() => null);
        if (metrics) peakHeap = Math.max(peakHeap, metrics.used);
        await sleep(200);
      }
    })();

    const hitCount = `^${expectedHits.toLocaleString('en-GB')} analytics hits$`;
    await armWait(page, 'summary', '[data-testid="har-hit-count"]', hitCount);
    const chosen = performance.now();
    await page.getByLabel('HAR file').setInputFiles(file);
    const upload = await finishWait(page, 'summary', ANALYSIS_TIMEOUT_MS);
    const wallMs = performance.now() - chosen;
    sampling = false;
    await sampler;
    const { timings, doneAt, deserialiseMs, doneRows, doneWarnings } = await page.evaluate(() => window.__harBench);
    const afterUpload = await heapMetrics(cdp);
    const rssAfter = Math.max(0, ...rendererRss());
    const listed = await page.getByRole('list', { name: 'Analytics hits' }).getByRole('button').count();

    // Filters: a vendor (a worker round trip without debounce), then a free-text search (150 ms
    // debounce; the first search also builds the worker's lower-cased text index), then a second
    // search, then "Clear filters" (no worker round trip: only the list re-renders).
    const count = '.har-filters__count';
    const metaHits = Math.ceil(ENTRIES / 10);
    const filters = [];
    const timeFilter = async (label, text, act) => {
      await armWait(page, label, count, text);
      await act();
      filters.push([label, await finishWait(page, label, FILTER_TIMEOUT_MS)]);
    };
    await timeFilter('vendor → Meta pixel', `^${metaHits.toLocaleString('en-GB')} matching hits`, () =>
      page.getByRole('combobox', { name: 'Vendor' }).selectOption('meta'),
    );
    await timeFilter('search "item-996" (first search)', '^2 matching hits', () =>
      page.getByRole('searchbox', { name: 'Search' }).fill('item-996'),
    );
    await timeFilter('search "item-995"', '^2 matching hits', () => page.getByRole('searchbox', { name: 'Search' }).fill('item-995'));
    await timeFilter('clear filters', `^${expectedHits.toLocaleString('en-GB')} matching hits`, () =>
      page.getByRole('button', { name: 'Clear filters' }).click(),
    );
    // Typing in the search box, one key at a time with all filters cleared: each keystroke until
    // the next frame (the filter itself follows 150 ms after the last one, in the worker).
    const typed = 'view_item';
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.evaluate(() => {
      window.__harBench.keystrokes = [];
    });
    await page.keyboard.type(typed);
    await page.waitForFunction(
      (length) =>
        window.__harBench.keystrokes.length >= length && window.__harBench.keystrokes.every((keystroke) => keystroke.frame !== null),
      typed.length,
      { timeout: FILTER_TIMEOUT_MS, polling: 100 },
    );
    const keystrokes = await page.evaluate(() => window.__harBench.keystrokes.map((keystroke) => keystroke.frame - keystroke.since));
    await page
      .locator(count)
      .getByText(/^[\d,]+ matching hits? · /)
      .waitFor({ timeout: FILTER_TIMEOUT_MS });
    const afterFilters = await heapMetrics(cdp);

    if (tracePath) await browser.stopTracing();
    const profile = profiling ? (await cdp.send('Profiler.stop')).profile : null;

    console.log('');
    printTable([
      [
        'file',
        `${(bytes / MB).toFixed(1)} MB, ${ENTRIES.toLocaleString('en-GB')} entries, ${expectedHits.toLocaleString('en-GB')} hits, ${listed} listed on page 1`,
      ],
      ['change event → summary in the DOM', millis(upload.inDomMs)],
      [
        'change event → summary on screen (next frame)',
        `${millis(upload.shownMs)} (setInputFiles → seen by Playwright: ${millis(wallMs)})`,
      ],
      ['  in the worker: read / parse / analyse', `${millis(timings.readMs)} / ${millis(timings.parseMs)} / ${millis(timings.analyseMs)}`],
      [
        '  worker "done" message → summary on screen',
        `${millis(upload.since + upload.shownMs - doneAt)} (deserialising it: ${millis(deserialiseMs)} for ${doneRows.toLocaleString('en-GB')} rows, ${doneWarnings.toLocaleString('en-GB')} warnings)`,
      ],
      ['main thread during the analysis', describeTasks(upload.longTasks)],
      [
        'page JS heap (main thread) before / peak / after',
        `${megabytes(before.used)} / ${megabytes(peakHeap)} / ${megabytes(afterUpload.used)} (total ${megabytes(afterUpload.total)})`,
      ],
      [
        'renderer process RSS before / peak / after',
        `${megabytes(rssBefore)} / ${megabytes(peakRss)} / ${megabytes(rssAfter)} (page and worker)`,
      ],
      [
        'main-thread busy during the upload (CDP)',
        `tasks ${millis((afterUpload.taskSeconds - before.taskSeconds) * 1000)}, script ${millis((afterUpload.scriptSeconds - before.scriptSeconds) * 1000)}`,
      ],
      ...filters.map(([label, result]) => [
        `filter: ${label}`,
        `${millis(result.shownMs)} to the updated list on screen; ${describeTasks(result.longTasks)}`,
      ]),
      [
        `typing "${typed}" in Search, keystroke → next frame`,
        `median ${millis([...keystrokes].sort((a, b) => a - b)[Math.floor(keystrokes.length / 2)])}, longest ${millis(Math.max(...keystrokes))} (${keystrokes.length} keys)`,
      ],
      ['page JS heap after the filters', megabytes(afterFilters.used)],
    ]);
    if (upload.longTasks.length) {
      const longest = upload.longTasks.indexOf(Math.max(...upload.longTasks));
      const doneOffset = doneAt - upload.since;
      console.log(
        `  (the longest task began ${millis(upload.longTaskStarts[longest])} after the change event; the worker's result arrived at ${millis(doneOffset)})`,
      );
    }
    if (tracePath) {
      console.log(`\nTrace written to ${tracePath} (Chromium Performance panel). Longest main-thread tasks in it:`);
      const trace = JSON.parse(readFileSync(tracePath, 'utf8'));
      for (const task of summariseTrace(trace, sourceMapper(root), 50)) {
        console.log(`  ${millis(task.ms)}: ${task.parts.join('; ') || 'no part over 5 ms'}`);
      }
    }
    if (profile) {
      console.log('\nMain-thread CPU profile (upload and filters): the longest busy stretches, from the start of the profile:');
      for (const stretch of summariseProfile(profile, sourceMapper(root), 50)) {
        console.log(`  ${millis(stretch.ms)} at ${millis(stretch.startMs)}`);
        console.log(`    self:   ${stretch.self.join('; ')}`);
        console.log(`    inside: ${stretch.inside.join('; ') || '(no app function)'}`);
      }
    }

    // The same page with a 1 GB capture (HAR_BENCH_LARGE_MB to change the size, 0 to skip), in a
    // fresh renderer process (the first page is closed) so that its peak (VmHWM) is this run's.
    const largeMb = Number(process.env.HAR_BENCH_LARGE_MB ?? 1024);
    if (largeMb > 0) {
      await page.close();
      await rm(file, { force: true });
      await largeRun({ context, work, sizeMb: largeMb });
    }
  } finally {
    await browser?.close().catch(() => undefined);
    if (app) await stopApp(app.child);
    app = null;
    await db?.database.stop();
    process.off('exit', onExit);
    await rm(work, { recursive: true, force: true });
  }
}
