/**
 * Hitscope for Apps end to end: the built app (dist/apps/hitscope-for-apps, `npm run build:apps`)
 * under Xvfb, driven through WebDriver (tauri-driver in front of Debian's WebKitWebDriver), with a
 * fake `adb` on its PATH replaying recorded logcat output for two devices (companions/desktop/test/
 * fakes), and the site's production build started here for the licence. Run by
 * scripts/test-desktop.mjs (`npm run test:desktop`), which provides the display and the driver.
 *
 * Every launch is a fresh app process on the same simulated computer (its own HOME), so what the
 * app keeps on disk (settings, recordings, the licence) carries from one launch to the next.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, MongoClient } from 'mongodb';
import request from 'supertest';
import { signUp } from '../support/e2e.js';
import { freePort } from '../support/oidc-test-provider.js';
import { testDatabaseUri } from '../support/test-database.js';
import { Element, Session } from '../support/webdriver.js';

/** A row of dist/companions/packages.json (scripts/companion-packages.mjs). */
interface CompanionRow {
  product: string;
  platform: string;
  arch: string;
  version: string;
  file: string;
  sha256: string;
}

const root = join(import.meta.dirname, '../..');
const APP = process.env.HITSCOPE_DESKTOP_APP ?? join(root, 'dist/apps/hitscope-for-apps');
const DRIVER = process.env.HITSCOPE_TAURI_DRIVER ?? 'tauri-driver';
const NATIVE_DRIVER = process.env.HITSCOPE_NATIVE_DRIVER ?? '/usr/bin/WebKitWebDriver';
const SHOTS = process.env.HITSCOPE_DESKTOP_SHOTS ?? join(root, 'test-results/desktop');
const FAKES = join(root, 'companions/desktop/test/fakes');
const EMULATOR = 'emulator-5554';
const IPHONE = '00008110-001A2B3C4D5E6F70';
const PHONE = '0A1B2C3D';
const ADMIN = 'desktop-admin@hitscope.test';

jest.setTimeout(120_000);

const fixture = (path: string) => readFileSync(join(root, path), 'utf8');
const deviceLine = (serial: string, state: string, model: string) =>
  `${serial.padEnd(22)} ${state} product:${serial === EMULATOR ? 'sdk_gphone64_x86_64' : 'panther'} model:${model} device:x transport_id:1`;

/** One computer: its home folder (the app's data), and its fake phones (the scenario the fakes read). */
class Computer {
  readonly dir = mkdtempSync(join(tmpdir(), 'hitscope-desktop-e2e-'));
  readonly home = join(this.dir, 'home');
  readonly bin = join(this.dir, 'bin');
  readonly phones = join(this.dir, 'phones');
  private readonly plugged = new Map<string, string>();

  constructor() {
    for (const dir of [this.home, this.bin, this.phones]) mkdirSync(dir, { recursive: true });
    for (const tool of ['adb', 'idevice_id', 'idevicesyslog']) {
      writeFileSync(join(this.bin, tool), `#!/bin/sh\nexec '${join(FAKES, tool)}' "$@"\n`, { mode: 0o755 });
    }
    this.writeDevices();
  }

  write(name: string, text: string) {
    writeFileSync(join(this.phones, name), text);
  }

  read(name: string): string | null {
    const path = join(this.phones, name);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }

  plug(serial: string, state: string, model: string) {
    this.plugged.set(serial, deviceLine(serial, state, model));
    this.writeDevices();
  }

  unplug(serial: string) {
    this.plugged.delete(serial);
    this.writeDevices();
  }

  private writeDevices() {
    this.write('devices', [...this.plugged.values()].map((line) => `${line}\n`).join(''));
  }

  env(): NodeJS.ProcessEnv {
    return {
      DISPLAY: process.env.DISPLAY,
      HOME: this.home,
      XDG_DATA_HOME: join(this.home, '.local/share'),
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
      // The fake tools first; the rest of the system for the shell commands the fakes use.
      PATH: `${this.bin}:/usr/bin:/bin`,
      FAKE_ADB_DIR: this.phones,
      FAKE_IDEVICE_DIR: this.phones,
      FAKE_ADB_LINE_DELAY: '0.02',
      LANG: 'en_GB.UTF-8',
    };
  }
}

interface Launched {
  session: Session;
  close(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tauri-driver exited with ${child.exitCode}: ${log()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/status`);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`tauri-driver did not listen on ${port}: ${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts the app through tauri-driver on `computer`, the window at 1280x800. */
async function launch(computer: Computer): Promise<Launched> {
  const [port, nativePort] = [await freePort(), await freePort()];
  const driver = spawn(DRIVER, ['--port', String(port), '--native-port', String(nativePort), '--native-driver', NATIVE_DRIVER], {
    env: computer.env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  driver.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  driver.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForPort(port, driver, () => output);
  const session = await Session.create(`http://127.0.0.1:${port}`, { browserName: 'wry', 'tauri:options': { application: APP } });
  await session.waitFor('the window', () => session.execute<boolean>('return !!document.querySelector(".desk")'));
  return {
    session,
    close: async () => {
      // The window closed as a person closes it (Tauri's own close, not WebDriver's, which kills the
      // process): the app quits and its exit work runs. Then the session is gone.
      await session.execute('window.__TAURI_INTERNALS__.invoke("plugin:window|close", { label: "main" })').catch(() => undefined);
      await session
        .waitFor(
          'the app to quit',
          () =>
            session.command('GET', '/window/handles').then(
              () => false,
              () => true,
            ),
          10_000,
        )
        .catch(() => undefined);
      await session.close();
      driver.kill('SIGTERM');
      await new Promise((resolve) => (driver.exitCode === null ? driver.once('exit', resolve) : resolve(null)));
    },
  };
}

/** Sets a <select> as a person choosing an option would (React reads the change event). */
function choose(session: Session, css: string, value: string) {
  return session.execute(
    `const select = document.querySelector(arguments[0]);
     const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;
     setter.call(select, arguments[1]);
     select.dispatchEvent(new Event('change', { bubbles: true }));`,
    css,
    value,
  );
}

/** Sets a text field's value as typing it would end (React reads the input event). */
function fill(session: Session, css: string, value: string) {
  return session.execute(
    `const input = document.querySelector(arguments[0]);
     const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
     setter.call(input, arguments[1]);
     input.dispatchEvent(new Event('input', { bubbles: true }));`,
    css,
    value,
  );
}

/** The rows shown: device label, app and event name of each. */
function rows(session: Session) {
  return session.execute<{ device: string; app: string; name: string }[]>(
    `return [...document.querySelectorAll('[data-testid=entry-row]')].map((row) => ({
       device: row.querySelector('[data-testid=entry-device]').textContent,
       app: row.querySelector('.desk-row__app')?.textContent ?? '',
       name: row.querySelector('[data-testid=entry-name]').textContent,
     }));`,
  );
}

/** Clicks the row of the event `name` (scrolled into view first: the list renders the rows in view). */
async function clickRow(session: Session, name: string) {
  const found = await session.execute<Record<string, string> | null>(
    `const row = [...document.querySelectorAll('[data-testid=entry-row]')].find((each) => each.querySelector('[data-testid=entry-name]').textContent === arguments[0]);
     row?.scrollIntoView({ block: 'center' });
     return row ?? null;`,
    name,
  );
  if (!found) throw new Error(`no row for ${name}`);
  await new Element(session, Object.values(found)[0]).click();
}

const countText = (session: Session) => session.execute<string>('return document.querySelector("[data-testid=entry-count]").textContent');

async function tab(session: Session, name: string) {
  await (await session.findXPath(`//nav//button[normalize-space()=${JSON.stringify(name)}]`)).click();
}

async function shot(session: Session, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const started = Date.now();
  writeFileSync(join(SHOTS, name), await session.screenshot());
  if (Date.now() - started > 5000) console.log(`screenshot ${name} took ${Date.now() - started} ms`);
}

describe('Hitscope for Apps, the built app driven through WebDriver', () => {
  const computer = new Computer();
  let site: ChildProcess | null = null;
  let siteUrl = '';
  let key = '';
  let owner: Awaited<ReturnType<typeof signUp>>;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let database = '';
  let app: Launched | null = null;
  let eventsBefore = '';

  beforeAll(async () => {
    // The site's production build, on a database of its own.
    const port = await freePort();
    siteUrl = `http://127.0.0.1:${port}`;
    database = testDatabaseUri('desktop');
    site = spawn(process.execPath, [join(root, 'dist/app/src/main.js')], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: siteUrl,
        MONGODB_URI: database,
        ADMIN_EMAILS: ADMIN,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MULTIPLIER: '1000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (site.exitCode !== null) throw new Error(`the site exited with ${site.exitCode}`);
      const ready = await fetch(`${siteUrl}/health/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the site did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A licence of two seats for Hitscope for Apps, granted by an administrator.
    admin = await signUp({ agent: request.agent(siteUrl), email: ADMIN, name: 'Admin', database });
    owner = await signUp({ agent: request.agent(siteUrl), database });
    await admin.agent
      .post(`/api/admin/users/${owner.user.id}/licences`)
      .set('x-csrf-token', admin.token)
      .send({ planId: 'team-yearly', products: ['hitscope-for-apps'], seats: 2 })
      .expect(201);
    const licences = (await owner.agent.get('/api/licences').expect(200)).body as { licences: { key: string; product: string }[] };
    key = licences.licences.find((licence) => licence.product === 'hitscope-for-apps')!.key;

    // Two phones that stay connected after replaying their log, as logcat does.
    computer.write(`logcat-${EMULATOR}.txt`, fixture('test/fixtures/applog/android-logcat-threadtime.txt'));
    computer.write(`logcat-${EMULATOR}.live`, '');
    computer.write(`pid-${EMULATOR}-1234`, 'com.example.shop');
    computer.write(`packages-${EMULATOR}`, 'com.example.game\ncom.example.shop\n');
    computer.write(`logcat-${PHONE}.txt`, fixture('companions/desktop/test/fixtures/logcat-game.txt'));
    computer.write(`logcat-${PHONE}.live`, '');
    computer.write(`pid-${PHONE}-4321`, 'com.example.game');
  });

  afterEach(async () => {
    expect(app).not.toBeNull();
    // The window as each test left it: what a failure looked like, in CI's artefacts.
    const name = (expect.getState().currentTestName ?? 'test').replace(/[^a-z0-9]+/gi, '-').slice(-80);
    await shot(app!.session, `after-${name}.png`).catch((error: unknown) => console.log(`no screenshot after ${name}: ${String(error)}`));
  });

  afterAll(async () => {
    await app?.close();
    site?.kill('SIGTERM');
    rmSync(computer.dir, { recursive: true, force: true });
  });

  it('lists devices as they come and go: none, one unauthorised, then two ready', async () => {
    app = await launch(computer);
    const { session } = app;
    await session.waitFor('the "no device" state', () =>
      session.execute<boolean>('return !!document.querySelector("[data-testid=no-device]")'),
    );
    await shot(session, 'desktop-no-device-light.png');
    // Nothing is watched: nothing to pause.
    expect(await (await session.button('Pause')).enabled()).toBe(false);

    computer.plug(EMULATOR, 'unauthorized', 'Pixel_7_API_34');
    const note = await session.waitFor('the unauthorised device', async () => {
      const texts = await session.texts('[data-testid=device] .desk-device__note');
      return texts[0]?.includes('accept “Allow USB debugging?” on the phone') ? texts[0] : null;
    });
    expect(note).toBe('Unauthorised: accept “Allow USB debugging?” on the phone.');
    await shot(session, 'desktop-unauthorised-light.png');
    expect(await (await session.button('Watch')).enabled()).toBe(false);

    computer.plug(EMULATOR, 'device', 'Pixel_7_API_34');
    computer.plug(PHONE, 'device', 'Pixel_7');
    await session.waitFor('two ready devices', async () => (await session.texts('[data-testid=device] .desk-device__name')).length === 2);
    expect(await session.texts('[data-testid=device] .desk-device__name')).toEqual(['Pixel 7 API 34', 'Pixel 7']);
    expect(await session.texts('[data-testid=device] .desk-device__note')).toEqual([]);
  });

  it('decodes a device the moment it logs, labelled with the device and the app; debug mode in one click', async () => {
    const { session } = app!;
    await (await session.find(`[data-device-id="android:${EMULATOR}"] button`)).click();
    await session.waitFor('the purchase', async () => (await rows(session)).some((row) => row.name === 'purchase'));
    await session.waitFor('every entry of the log', async () => (await countText(session)) === '13 entries');
    expect(await (await session.button('Pause')).enabled()).toBe(true);
    const shown = await rows(session);
    expect(new Set(shown.map((row) => row.device))).toEqual(new Set(['Pixel 7 API 34']));
    expect(shown.find((row) => row.name === 'purchase')).toEqual({ device: 'Pixel 7 API 34', app: 'com.example.shop', name: 'purchase' });
    expect(await session.texts('[data-testid=stat-issues]')).toEqual(['4']);

    // Debug mode is off on this device: said, and turned on for a package picked from the device.
    await session.waitFor('the debug-mode notice', () =>
      session.execute<boolean>('return !!document.querySelector("[data-testid=banner-debug-off]")'),
    );
    await (await session.button('Turn on…')).click();
    await session.waitFor('the package list', () =>
      session.execute<boolean>('return !!document.querySelector(".desk-debug--pick select")'),
    );
    await choose(session, '.desk-debug--pick select', 'com.example.shop');
    await (await session.button('Turn on')).click();
    await session.waitFor('debug mode on', async () =>
      (await session.texts('[data-testid=debug-mode]'))[0]?.startsWith('Debug mode on for com.example.shop'),
    );
    expect(computer.read(`prop-${EMULATOR}-debug.firebase.analytics.app`)).toBe('com.example.shop');
    expect(await session.execute<boolean>('return !!document.querySelector("[data-testid=banner-debug-off]")')).toBe(false);

    // The free tier watches one source at a time.
    expect(await (await session.find(`[data-device-id="android:${PHONE}"] button`)).enabled()).toBe(false);
  });

  it('activates a licence against the running site, with the site address set in Settings', async () => {
    const { session } = app!;
    await tab(session, 'Settings');
    await fill(session, 'input[value="http://localhost:3000"]', '');
    await (await session.find('.desk-page input.input')).type(siteUrl);
    await (await session.button('Save')).click();
    await session.waitFor('the saved settings', async () =>
      (await session.texts('.toast')).some((text) => text.startsWith('Settings saved.')),
    );

    await tab(session, 'Licence');
    await (await session.find('.desk-key')).type(key.toLowerCase().replace(/-/g, ' '));
    await (await session.button('Activate')).click();
    await session.waitFor('the licence', async () =>
      (await session.find('[data-testid=licence-status]')).attribute('data-tier').then((tier) => tier === 'paid'),
    );
    expect(await session.texts('[data-testid=tier]')).toEqual(['Licensed']);
    // The site counts this computer as one of the licence's devices.
    const listed = (await owner.agent.get('/api/licences').expect(200)).body as { licences: { product: string; seatsUsed: number }[] };
    expect(listed.licences.find((licence) => licence.product === 'hitscope-for-apps')!.seatsUsed).toBe(1);
    await shot(session, 'desktop-licence-light.png');
  });

  it('watches two devices at once, each event labelled with its device and app, and filters them', async () => {
    const { session } = app!;
    await tab(session, 'Live');
    await (await session.find(`[data-device-id="android:${PHONE}"] button`)).click();
    await session.waitFor('the second device', async () =>
      (await rows(session)).some((row) => row.device === 'Pixel 7' && row.name === 'level_up'),
    );
    await session.waitFor('both logs', async () => (await countText(session)) === '18 entries');
    const all = await rows(session);
    expect(all.find((row) => row.name === 'level_up')).toEqual({ device: 'Pixel 7', app: 'com.example.game', name: 'level_up' });
    expect(all.filter((row) => row.device === 'Pixel 7 API 34')).toHaveLength(13);

    const deviceFilter = await session.findXPath('//label[normalize-space()="Device"]');
    await choose(
      session,
      `#${await deviceFilter.attribute('for')}`,
      await session.execute<string>(
        `return [...document.querySelectorAll('#' + arguments[0] + ' option')].find((option) => option.textContent === 'Pixel 7').value`,
        await deviceFilter.attribute('for'),
      ),
    );
    await session.waitFor('the filtered stream', async () => (await countText(session)) === '5 of 18 entries');
    expect(new Set((await rows(session)).map((row) => row.device))).toEqual(new Set(['Pixel 7']));

    await (await session.find('input[type=search]')).type('level_up');
    await session.waitFor('the search', async () => (await countText(session)) === '1 of 18 entries');
    expect((await rows(session)).map((row) => row.name)).toEqual(['level_up']);
    await choose(session, `#${await deviceFilter.attribute('for')}`, '');
    await fill(session, 'input[type=search]', '');
    await session.waitFor('the whole stream again', async () => (await countText(session)) === '18 entries');
  });

  it('says when a device is unplugged mid-stream, keeps what it logged, and carries on when it is back', async () => {
    const { session } = app!;
    computer.unplug(PHONE);
    await session.waitFor('the unplugged notice', () =>
      session.execute<boolean>('return !!document.querySelector("[data-testid=banner-unplugged]")'),
    );
    expect(await session.texts('[data-testid=banner-unplugged]')).toEqual([
      'Pixel 7 was unplugged mid-stream. What it logged is kept; plug it in again and the stream carries on where it stopped.',
    ]);
    expect(await countText(session)).toBe('18 entries');
    await shot(session, 'desktop-unplugged-light.png');
    computer.plug(PHONE, 'device', 'Pixel_7');
    await session.waitFor('the stream again', async () => {
      const states = await session.execute<string[]>(
        'return [...document.querySelectorAll("[data-testid=source]")].map((s) => s.dataset.state)',
      );
      return states.every((state) => state === 'streaming');
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await countText(session)).toBe('18 entries');
    expect(await session.execute<boolean>('return !!document.querySelector("[data-testid=banner-unplugged]")')).toBe(false);
  });

  it('watches an iPhone beside the Android devices (idevicesyslog), labelled with its name and app', async () => {
    const { session } = app!;
    computer.write('iphones', `${IPHONE}\n`);
    computer.write(`name-${IPHONE}`, 'Ada’s iPhone');
    computer.write(`syslog-${IPHONE}.txt`, fixture('companions/desktop/test/fixtures/idevicesyslog-shop.txt'));
    computer.write(`syslog-${IPHONE}.live`, '');
    const watch = await session.waitFor('the iPhone', () => session.find(`[data-device-id="ios:${IPHONE}"] button`).catch(() => null));
    await watch.click();
    await session.waitFor('the iPhone’s purchase', async () =>
      (await rows(session)).some((row) => row.device === 'Ada’s iPhone' && row.name === 'purchase'),
    );
    const purchase = (await rows(session)).find((row) => row.device === 'Ada’s iPhone' && row.name === 'purchase');
    expect(purchase).toEqual({ device: 'Ada’s iPhone', app: 'ShopApp', name: 'purchase' });
    await session.waitFor('the whole iPhone log', async () => (await countText(session)) === '29 entries');
    eventsBefore = await countText(session);
  });

  it('shows the window in both colour modes at 1280x800', async () => {
    const { session } = app!;
    await clickRow(session, 'purchase');
    await shot(session, 'desktop-live-light.png');
    expect(await session.execute<number[]>('return [window.innerWidth, window.innerHeight]')).toEqual([1280, 800]);
    await tab(session, 'Settings');
    await (await session.findXPath('//label[normalize-space()="Dark"]')).click();
    await session.waitFor('dark mode', () => session.execute<boolean>('return document.documentElement.dataset.theme === "dark"'));
    await tab(session, 'Live');
    await shot(session, 'desktop-live-dark.png');
    await tab(session, 'Recordings');
    await shot(session, 'desktop-recordings-dark.png');
  });

  it('npm run build:apps lists its .deb and .rpm for npm run publish:companions, which publishes them as releases of the app', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const companions = join(root, 'dist/companions');
    const listed = (JSON.parse(readFileSync(join(companions, 'packages.json'), 'utf8')) as { packages: CompanionRow[] }).packages.filter(
      (row) => row.product === 'hitscope-for-apps',
    );
    expect(listed.map((row) => row.file.slice(row.file.lastIndexOf('.') + 1)).sort()).toEqual(['deb', 'rpm']);
    for (const row of listed) {
      expect(row).toMatchObject({ platform: 'linux', arch: 'x64', version });
      const bytes = readFileSync(join(companions, row.file));
      expect(row.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      // The very package build:apps made (dist/apps), not another copy.
      expect(readFileSync(join(root, 'dist/apps', row.file)).equals(bytes)).toBe(true);
    }

    const publish = spawnSync(process.execPath, [join(root, 'dist/app/src/cli.js'), 'publish-companions'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', MONGODB_URI: database, PUBLIC_URL: siteUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect({ status: publish.status, stderr: publish.status === 0 ? '' : publish.stderr }).toEqual({ status: 0, stderr: '' });
    for (const row of listed) expect(publish.stdout).toContain(row.file);
    const client = await MongoClient.connect(database);
    try {
      const published = await client
        .db()
        .collection<{ product: string; platform: string; arch: string; version: string; file: { filename: string; sha256: string } }>(
          'releases',
        )
        .find({ product: 'hitscope-for-apps', version })
        .toArray();
      expect(published.map((release) => [release.platform, release.arch, release.file.filename, release.file.sha256]).sort()).toEqual(
        listed.map((row) => ['linux', 'x64', row.file, row.sha256]).sort(),
      );
    } finally {
      await client.close();
    }
  });

  it('offers an update only once its SHA-256 and signature verify, and refuses a build whose signature or bytes do not', async () => {
    const { session } = app!;
    // A newer .deb and .rpm of the app, published through the site's releases service.
    const build = Buffer.from(`a build of Hitscope for Apps 9.9.9 ${Date.now()}`);
    for (const filename of ['hitscope-for-apps_9.9.9_amd64.deb', 'hitscope-for-apps-9.9.9-1.x86_64.rpm']) {
      await admin.agent
        .post('/api/admin/releases')
        .set('x-csrf-token', admin.token)
        .field('product', 'hitscope-for-apps')
        .field('platform', 'linux')
        .field('arch', 'x64')
        .field('channel', 'stable')
        .field('version', '9.9.9')
        .field('size', String(build.length))
        .attach('file', build, { filename, contentType: 'application/octet-stream' })
        .expect(201);
    }
    await tab(session, 'Settings');
    await (await session.button('Check for updates')).click();
    await session.waitFor('the offered update', async () => (await session.texts('[data-testid=updates] strong'))[0] === 'Version 9.9.9');
    await (await session.button('Download and verify')).click();
    const verified = await session.waitFor('the verified download', async () =>
      (await session.texts('[data-testid=updates] [role=status]')).find((text) =>
        text.startsWith('Version 9.9.9 is downloaded and verified'),
      ),
    );
    await shot(session, 'desktop-update-verified-dark.png');
    expect(verified).toContain(`SHA-256 ${createHash('sha256').update(build).digest('hex').slice(0, 16)}`);
    const format = (await session.texts('[data-testid=updates] ~ dl dd'))[1];
    expect(format).toMatch(/updates as \.(deb|rpm)$/);
    const downloaded = readdirSync(join(computer.home, '.cache/com.hitscope.apps/updates'));
    expect(downloaded).toEqual([`hitscope-for-apps-9.9.9.${format!.slice(-3)}`]);

    const client = await MongoClient.connect(database);
    const releases = client.db().collection<{ version: string; signature: { value: string }; file: { storageId: string } }>('releases');
    const checkAndDownload = async () => {
      await tab(session, 'Live');
      await tab(session, 'Settings');
      await (await session.button('Check for updates')).click();
      await (await session.waitFor('the update again', () => session.button('Download and verify').catch(() => null))).click();
      return session.waitFor('the refusal', async () => (await session.texts('[data-testid=updates] [role=alert]'))[0]);
    };
    try {
      // The same build with another signature (as if the answer were altered on the way): refused by
      // the window before anything is downloaded, and never offered for installation.
      const signed = await releases.find({ version: '9.9.9' }).toArray();
      const forged = Buffer.alloc(64, 7).toString('base64url');
      await releases.updateMany({ version: '9.9.9' }, { $set: { 'signature.value': forged } });
      expect(await checkAndDownload()).toBe('Version 9.9.9 is not offered: bad signature.');
      expect(await session.execute<boolean>('return !!document.querySelector("[data-testid=updates] button.button--primary")')).toBe(false);

      // The genuine signature again, but the build's bytes altered in the site's storage (same size):
      // the download's SHA-256 differs from the signed one, so the file is deleted, never offered.
      for (const release of signed) {
        await releases.updateOne({ _id: release._id }, { $set: { 'signature.value': release.signature.value } });
        const chunks = client.db().collection<{ _id: string; data: Binary }>('releases.chunks');
        const chunk = (await chunks.findOne({ _id: `${release.file.storageId}:0` }))!;
        const tampered = Buffer.from(chunk.data.buffer);
        tampered[0] ^= 0x20;
        await chunks.updateOne({ _id: chunk._id }, { $set: { data: new Binary(tampered) } });
      }
      expect(await checkAndDownload()).toBe("The download's SHA-256 differs from the one the site published: it is not offered.");
      expect(await session.execute<boolean>('return !!document.querySelector("[data-testid=updates] button.button--primary")')).toBe(false);
      // Only the build verified earlier is on disk: nothing of the altered one is kept.
      expect(readdirSync(join(computer.home, '.cache/com.hitscope.apps/updates'))).toEqual(downloaded);
    } finally {
      await client.close();
    }
  });

  it('turns debug mode off again when the app quits, and reopens the recording after a restart', async () => {
    await app!.close();
    app = null;
    await new Session('', '').waitFor(
      'debug mode off',
      async () => computer.read(`prop-${EMULATOR}-debug.firebase.analytics.app`) === '.none.',
      10_000,
    );

    app = await launch(computer);
    const { session } = app;
    await tab(session, 'Recordings');
    await session.waitFor('the recording', async () => (await session.findAll('[data-testid=recording]')).length > 0);
    const [first] = await session.findAll('[data-testid=recording]');
    expect(await first.text()).toContain('Pixel 7 API 34, Pixel 7, Ada’s iPhone');
    await (await first.find('button')).click();
    await session.waitFor('the recorded stream', async () => (await countText(session)) === eventsBefore);
    // The list draws only the rows in view (29 entries do not all fit): each event is searched for.
    const found = async (name: string) => {
      await fill(session, 'input[type=search]', name);
      return session.waitFor(`the recorded ${name}`, async () => {
        const shown = (await rows(session)).filter((row) => row.name === name);
        return shown.length > 0 && shown;
      });
    };
    expect(await found('purchase')).toContainEqual({ device: 'Pixel 7 API 34', app: 'com.example.shop', name: 'purchase' });
    expect(await found('level_up')).toEqual([{ device: 'Pixel 7', app: 'com.example.game', name: 'level_up' }]);
    await fill(session, 'input[type=search]', '');
    await session.waitFor('the whole recording again', async () => (await countText(session)) === eventsBefore);
    expect(await session.texts('[data-testid=banner-recording]')).toHaveLength(1);
    await shot(session, 'desktop-recording-dark.png');
  });

  it('keeps the licence with the site stopped (the lease verified offline)', async () => {
    await app!.close();
    app = null;
    site!.kill('SIGTERM');
    await new Promise((resolve) => site!.once('exit', resolve));
    await expect(fetch(`${siteUrl}/health/live`)).rejects.toThrow();

    app = await launch(computer);
    const { session } = app;
    await session.waitFor('the licensed tier', async () => (await session.texts('[data-testid=tier]'))[0] === 'Licensed');
    await tab(session, 'Licence');
    await (await session.button('Check now')).click();
    await session.waitFor('the offline check', async () =>
      (await session.texts('[data-testid=licence-status]'))[0]?.includes('The site could not be reached just now'),
    );
    expect(await (await session.find('[data-testid=licence-status]')).attribute('data-tier')).toBe('paid');
    // Why, in words, not the operating system's error.
    const status = (await session.texts('[data-testid=licence-status]'))[0]!;
    expect(status).toContain("nothing answers at the site's address");
    expect(status).not.toMatch(/os error|io:/);
    await shot(session, 'desktop-licence-offline-dark.png');
  });

  it('says "adb not found" when adb is not where it is looked for', async () => {
    const { session } = app!;
    await tab(session, 'Settings');
    await (await session.find('input[placeholder*="platform-tools/adb"]')).type('/nonexistent/platform-tools/adb');
    await (await session.button('Save')).click();
    await session.waitFor('the adb-missing state', async () =>
      (await session.texts('[data-testid=adb-missing]'))[0]?.startsWith('adb not found.'),
    );
    await tab(session, 'Live');
    await shot(session, 'desktop-adb-missing-dark.png');
    // The Android devices are gone from the list; the iPhone (another tool) stays.
    expect(await session.texts('[data-testid=device] .desk-device__name')).toEqual(['Ada’s iPhone']);
  });
});
