// Hitscope for Apps (the desktop app): how fast it decodes a device's stream, and what an hour of
// one costs. Prints numbers only.
//
//   1. The decoder as the app's worker runs it (lib/tools/applog/live.ts): an hour of a busy app in
//      debug mode — 5 events a second, each logged in the SDK's three stages, with screen views,
//      user properties and uploads — fed in the back end's batches (up to 2000 lines, as a fast
//      device or a reopened recording arrives), an update taken after each. Events/s, and the heap it
//      keeps for the hour (and the size of the copy the window holds).
//   2. The app itself, when it is built (dist/apps/hitscope-for-apps) and Xvfb, WebKitWebDriver and
//      tauri-driver are here: the same hour through the fake adb as fast as the fake replays it, the
//      time until the window counts every event, and the memory (RSS) of the app and its WebKit
//      processes then. DESKTOP_BENCH_MINUTES (60) sets the length of the recording.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

export const title = 'Hitscope for Apps (desktop): live decoding';

const MINUTES = Number(process.env.DESKTOP_BENCH_MINUTES ?? 60);
const EVENTS_PER_SECOND = 5;
const BATCH_LINES = 2000;
const SERIAL = 'emulator-5554';

const pad = (value, width = 2) => String(value).padStart(width, '0');
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** An hour of `adb logcat -v threadtime -s FA FA-SVC` from a busy app in debug mode. */
function hourOfLogcat() {
  const lines = [];
  const seconds = MINUTES * 60;
  let screen = 'Home';
  for (let second = 0; second < seconds; second++) {
    const clock = (ms) =>
      `05-01 ${pad(10 + Math.floor(second / 3600))}:${pad(Math.floor(second / 60) % 60)}:${pad(second % 60)}.${pad(ms, 3)}`;
    if (second % 60 === 0) {
      screen = `Screen${(second / 60) % 12}`;
      lines.push(
        `${clock(0)}  1234  1260 V FA      : Logging event (FE): screen_view(_vs), Bundle[{ga_event_origin(_o)=auto, ga_screen_class(_sc)=${screen}Activity, ga_screen_id(_si)=-45246586245809${second}}]`,
        `${clock(20)}  1234  1290 V FA-SVC  : Logging event: origin=auto,name=screen_view(_vs),params=Bundle[{ga_event_origin(_o)=auto, ga_screen_class(_sc)=${screen}Activity, ga_screen_id(_si)=-45246586245809${second}}]`,
      );
    }
    if (second % 300 === 7) lines.push(`${clock(5)}  1234  1260 V FA      : Setting user property (FE): plan, tier_${second % 3}`);
    for (let n = 0; n < EVENTS_PER_SECOND; n++) {
      const ms = 100 + n * 180;
      const name = ['add_to_cart', 'select_item', 'view_item', 'level_up', 'search'][n];
      const params = `ga_event_origin(_o)=app, ga_screen_class(_sc)=${screen}Activity, item_id=SKU_${second % 500}, value=${(second % 997) / 10}, currency=EUR`;
      lines.push(
        `${clock(ms)}  1234  1260 V FA      : Logging event (FE): ${name}, Bundle[{${params}}]`,
        `${clock(ms + 30)}  1234  1290 V FA-SVC  : Logging event: origin=app,name=${name},params=Bundle[{${params}}]`,
        `${clock(ms + 35)}  1234  1290 V FA-SVC  : Event recorded: Event{appId='com.example.shop', name='${name}', params=Bundle[{${params}, ga_debug(_dbg)=1, ga_realtime(_r)=1}]}`,
      );
    }
    if (second % 30 === 29) {
      lines.push(
        `${clock(990)}  1234  1290 V FA-SVC  : Uploading data. app, uncompressed size, data: com.example.shop, 1532,`,
        `${clock(990)}  1234  1290 V FA-SVC  : batch {`,
        `${clock(990)}  1234  1290 V FA-SVC  : }`,
        `${clock(999)}  1234  1290 V FA-SVC  : Successful upload. Got network response. code, size: 204, 0`,
      );
    }
  }
  return lines;
}

function heapAfterGc(gc) {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function benchDecoder(dist, median, lines) {
  const { LiveAppLog } = await import(pathToFileURL(join(dist, 'lib/tools/applog/live.js')).href);
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const runs = [];
  let events = 0;
  let kept = 0;
  let copy = 0;
  for (let run = 0; run < 3; run++) {
    const before = heapAfterGc(gc);
    const started = performance.now();
    const live = new LiveAppLog('android');
    // The window's copy of the stream: every entry as the worker last sent it.
    const window = [];
    let update = null;
    for (let at = 0; at < lines.length; at += BATCH_LINES) {
      live.push(`${lines.slice(at, at + BATCH_LINES).join('\n')}\n`);
      update = live.take() ?? update;
      if (update) for (const entry of update.entries) window[entry.index] = entry;
    }
    update = live.take(true) ?? update;
    for (const entry of update.entries) window[entry.index] = entry;
    runs.push(performance.now() - started);
    events = update.summary.events;
    if (run === 0) {
      kept = heapAfterGc(gc) - before;
      copy = v8.serialize(window).length;
    }
    // Keep `live` and `window` alive until measured.
    if (live.platform !== 'android' || window.length === 0) throw new Error('nothing decoded');
  }
  const seconds = median(runs) / 1000;
  console.log(
    `${MINUTES} min of a busy app (${EVENTS_PER_SECOND} events/s in debug mode): ${lines.length.toLocaleString('en-GB')} logcat lines, ${events.toLocaleString('en-GB')} events`,
  );
  console.log(
    `  decoder (the window's worker): ${median(runs).toFixed(0)} ms (median of 3) = ${Math.round(events / seconds).toLocaleString('en-GB')} events/s, ` +
      `${Math.round(lines.length / seconds).toLocaleString('en-GB')} lines/s`,
  );
  console.log(
    `  memory after the hour: the decoder keeps ${mb(kept)} of heap; the window's copy of the stream is ~${mb(copy)} (structured clone)`,
  );
  return events;
}

function which(command) {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** RSS of `pid` and every process below it (Linux /proc), by process name. */
function treeRss(pid, into = new Map()) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? String(pid);
    const rss = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
    into.set(name, (into.get(name) ?? 0) + rss);
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (children) for (const child of children.split(/\s+/)) treeRss(Number(child), into);
    }
  } catch {
    // the process ended meanwhile
  }
  return into;
}

async function benchApp(root, lines, expectedEvents) {
  const app = join(root, 'dist/apps/hitscope-for-apps');
  const driver =
    process.env.HITSCOPE_TAURI_DRIVER ??
    [join(homedir(), '.cache/hitscope/tools/bin/tauri-driver')].find(existsSync) ??
    which('tauri-driver');
  const native = which('WebKitWebDriver');
  const xvfb = which('Xvfb');
  if (process.platform !== 'linux' || !existsSync(app) || !driver || !native || !xvfb) {
    console.log('  the app itself: not measured (needs Linux, `npm run build:apps`, Xvfb, WebKitWebDriver and tauri-driver)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'hitscope-desktop-bench-'));
  const children = [];
  try {
    const [home, bin, phones] = ['home', 'bin', 'phones'].map((name) => join(dir, name));
    for (const each of [home, bin, phones]) mkdirSync(each, { recursive: true });
    writeFileSync(join(bin, 'adb'), `#!/bin/sh\nexec '${join(root, 'companions/desktop/test/fakes/adb')}' "$@"\n`, { mode: 0o755 });
    writeFileSync(
      join(phones, 'devices'),
      `${SERIAL}          device product:sdk_gphone64_x86_64 model:Pixel_7_API_34 device:x transport_id:1\n`,
    );
    writeFileSync(join(phones, `logcat-${SERIAL}.txt`), `${lines.join('\n')}\n`);
    writeFileSync(join(phones, `logcat-${SERIAL}.live`), '');
    writeFileSync(join(phones, `pid-${SERIAL}-1234`), 'com.example.shop');
    let display = 90;
    while (existsSync(`/tmp/.X11-unix/X${display}`) || existsSync(`/tmp/.X${display}-lock`)) display++;
    children.push(spawn(xvfb, [`:${display}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' }));
    for (let wait = 0; !existsSync(`/tmp/.X11-unix/X${display}`) && wait < 200; wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const [port, nativePort] = [await freePort(), await freePort()];
    const env = {
      DISPLAY: `:${display}`,
      HOME: home,
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      PATH: `${bin}:/usr/bin:/bin`,
      FAKE_ADB_DIR: phones,
      FAKE_ADB_LINE_DELAY: '0',
    };
    const tauriDriver = spawn(driver, ['--port', String(port), '--native-port', String(nativePort), '--native-driver', native], {
      env,
      stdio: 'ignore',
    });
    children.push(tauriDriver);
    const base = `http://127.0.0.1:${port}`;
    const call = async (method, path, body) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await response.json()).value;
    };
    for (let wait = 0; wait < 100; wait++) {
      if (
        await fetch(`${base}/status`).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const session = await call('POST', '/session', {
      capabilities: { alwaysMatch: { browserName: 'wry', 'tauri:options': { application: app } } },
    });
    const id = session.sessionId;
    const run = (script) => call('POST', `/session/${id}/execute/sync`, { script, args: [] });
    for (
      let wait = 0;
      wait < 100 && !(await run(`return !!document.querySelector('[data-device-id="android:${SERIAL}"] button')`));
      wait++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = performance.now();
    await run(`document.querySelector('[data-device-id="android:${SERIAL}"] button').click()`);
    let shown = 0;
    while (shown < expectedEvents && performance.now() - started < 10 * 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      shown = Number(String(await run(`return document.querySelector('[data-testid=stat-events]')?.textContent ?? '0'`)).replace(/,/g, ''));
    }
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rss = treeRss(tauriDriver.pid);
    const own = [...rss].filter(([name]) => !/tauri-driver|WebKitWebDriver/.test(name));
    const total = own.reduce((sum, [, bytes]) => sum + bytes, 0);
    console.log(
      `  the app itself: ${shown.toLocaleString('en-GB')} of ${expectedEvents.toLocaleString('en-GB')} events in the window ${seconds.toFixed(1)} s after Watch ` +
        `(the fake adb replaying as fast as it can: ${Math.round(shown / seconds).toLocaleString('en-GB')} events/s end to end)`,
    );
    console.log(`  memory then: ${mb(total)} RSS (${own.map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', ')})`);
    await call('DELETE', `/session/${id}`).catch(() => undefined);
  } finally {
    for (const child of children.reverse()) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function benchDesktop({ root, dist, median }) {
  const lines = hourOfLogcat();
  const events = await benchDecoder(dist, median, lines);
  await benchApp(root, lines, events);
}
