/**
 * `npm start` (scripts/start.mjs) runs the app as a child process, and the app its embedded database
 * as another. Stopping `npm start` by its pid must stop all of them, and its exit code is the app's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root.js';
import { freePort } from '../support/oidc-test-provider.js';

/** Every process below `pid`, from /proc (Linux: the machines and CI are). */
async function descendantsOf(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    // "pid (comm) state ppid …": comm may hold spaces and brackets, so read after its last ")".
    if (stat) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node scripts/start.mjs` with the embedded database in a folder of its own, as on a fresh machine. */
async function npmStart(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'log',
    ...env,
  };
  delete childEnv.MONGODB_URI;
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/start.mjs')], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function listening(started: Started): Promise<void> {
  for (const deadline = Date.now() + 60_000; !/Hitscope is listening on /.test(started.output());) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`npm start did not listen within 60 s:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hitscope-start-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    'stopped by its pid with %s, stops the app and its database and exits with the app’s code 0',
    async (signal) => {
      const started = await npmStart(dataDir);
      let below: number[] = [];
      try {
        await listening(started);
        below = await descendantsOf(started.child.pid!);
        // The app and, below it, the embedded database.
        expect(below.length).toBeGreaterThanOrEqual(2);
        started.child.kill(signal);
        expect(await started.exited).toEqual({ code: 0, signal: null });
        expect(started.output()).toContain(`${signal} received, shutting down`);
        for (const deadline = Date.now() + 10_000; below.some(alive) && Date.now() < deadline;) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(below.filter(alive)).toEqual([]);
      } finally {
        for (const pid of [started.child.pid!, ...below]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    },
    90_000,
  );

  it('stopped through npm (`kill <npm’s pid>`), leaves neither the app nor its database running', async () => {
    const port = String(await freePort());
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: port, DATA_DIR: dataDir };
    delete env.MONGODB_URI;
    // npm runs the script under `sh -c`: the signal npm passes on ends the shell, never reaching start.mjs.
    const npm = spawn('npm', ['start', '--silent'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started: Started = {
      child: npm,
      output: () => output,
      exited: new Promise((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal }))),
    };
    let below: number[] = [];
    try {
      await listening(started);
      below = await descendantsOf(npm.pid!);
      expect(below.length).toBeGreaterThanOrEqual(3);
      npm.kill('SIGTERM');
      await started.exited;
      for (const deadline = Date.now() + 10_000; below.some(alive) && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(below.filter(alive)).toEqual([]);
      expect(output).toContain('SIGHUP received, shutting down');
    } finally {
      for (const pid of [npm.pid!, ...below]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);

  it('exits with the app’s own code when the app cannot start', async () => {
    const started = await npmStart(dataDir, { PORT: 'not-a-port' });
    expect(await started.exited).toEqual({ code: 1, signal: null });
    expect(started.output()).toContain('PORT');
  }, 30_000);
});
