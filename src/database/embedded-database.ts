import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { PROJECT_ROOT } from '../common/project-root.js';

/**
 * Launcher for the embedded database: FerretDB 1.24 with its SQLite backend, compiled from the small
 * Go program in `database-launcher/` and run as a child process on loopback. The app uses it when
 * MONGODB_URI is unset; the test suites use the very same code with a temporary data folder. The same
 * program runs FerretDB on a PostgreSQL database instead (`postgresqlUrl`): the test suites' pool run
 * and the benchmark's engine comparison (docs/database.md, "Two engines").
 */

export class EmbeddedDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedDatabaseError';
  }
}

export interface EmbeddedDatabase {
  uri: string;
  pid: number;
  stop(): Promise<void>;
}

type Log = (message: string) => void;

const LAUNCHER_DIR = join(PROJECT_ROOT, 'database-launcher');

/** go.mod, go.sum, every Go file, and Hitscope's additions to FerretDB with the program that compiles them in (`_ferretdb/`): a change to any of them builds the launcher again. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await readdir(LAUNCHER_DIR)).filter((file) => file === 'go.mod' || file === 'go.sum' || file.endsWith('.go')).sort();
  const additions = (await readdir(join(LAUNCHER_DIR, '_ferretdb'), { recursive: true }))
    .filter((file) => file.endsWith('.go'))
    .map((file) => join('_ferretdb', file))
    .sort();
  for (const file of [...files, ...additions]) hash.update(`${file}\0`).update(await readFile(join(LAUNCHER_DIR, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Where the compiled launcher is cached: one binary per version of its sources. */
export async function embeddedDatabaseBinaryPath(): Promise<string> {
  return join(PROJECT_ROOT, '.cache', 'hitscope-db', await sourceHash(), 'hitscope-db');
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

/**
 * Builds the launcher when no cached binary matches its sources. The first build downloads Go
 * modules and compiles FerretDB (about two minutes on two cores), so it reports progress.
 */
export async function ensureEmbeddedDatabaseBinary(log: Log = console.log): Promise<string> {
  const binary = await embeddedDatabaseBinaryPath();
  if (existsSync(binary)) return binary;

  const goVersion = await run('go', ['version'], LAUNCHER_DIR).catch(() => null);
  if (!goVersion || goVersion.code !== 0) {
    throw new EmbeddedDatabaseError(
      'The embedded database needs the Go toolchain (1.24 or newer) to build once, and `go` was not found. ' +
        'Install Go, or set MONGODB_URI to use your own MongoDB.',
    );
  }

  log('Building the embedded database (FerretDB, first run only; this takes a minute or two)…');
  const started = Date.now();
  const ticker = setInterval(() => log(`  …still building the embedded database (${Math.round((Date.now() - started) / 1000)} s)`), 15_000);
  ticker.unref();
  // Build into a unique temporary name and rename: concurrent starters never see a half-written file.
  const partial = `${binary}.${process.pid}.partial`;
  const workDir = `${binary}.${process.pid}.build`;
  try {
    await mkdir(join(binary, '..'), { recursive: true });
    // FerretDB with Hitscope's SQLite pushdowns (database-launcher/_ferretdb): a patched copy of its
    // module and a go.mod that points at it, then the launcher built against them.
    const prepared = await run('go', ['run', './_ferretdb/patch', '-out', workDir], LAUNCHER_DIR);
    if (prepared.code !== 0) {
      throw new EmbeddedDatabaseError(`Preparing the embedded database's build failed:\n${prepared.output.trim()}`);
    }
    const result = await run('go', ['build', '-trimpath', '-modfile', join(workDir, 'go.mod'), '-o', partial, '.'], LAUNCHER_DIR);
    if (result.code !== 0) {
      throw new EmbeddedDatabaseError(`Building the embedded database failed:\n${result.output.trim()}`);
    }
    await rename(partial, binary);
  } finally {
    clearInterval(ticker);
    await rm(partial, { force: true });
    await rm(workDir, { recursive: true, force: true });
  }
  log(`Embedded database built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return binary;
}

export interface StartOptions {
  /** Folder for the SQLite files (unused with `postgresqlUrl`). */
  dataDir: string;
  /** Run FerretDB on this PostgreSQL database instead of SQLite files (`postgres://…`). */
  postgresqlUrl?: string;
  /**
   * False: the launcher adds none of its lookup indexes (database-launcher/indexes.go), as the
   * launcher did before it had them. Only the benchmark's "before" measurements want that.
   */
  lookupIndexes?: boolean;
  /** A prebuilt binary (Docker image); otherwise built from source and cached. */
  binary?: string | null;
  /** `127.0.0.1:0` picks a free port. */
  listen?: string;
  log?: Log;
  startTimeoutMs?: number;
}

async function waitForPing(uri: string, deadline: number): Promise<void> {
  let lastError: unknown;
  while (Date.now() < deadline) {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1000, directConnection: true });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  throw new EmbeddedDatabaseError(`The embedded database did not answer ping: ${String(lastError)}`);
}

export async function startEmbeddedDatabase(options: StartOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? console.log;
  const binary = options.binary ?? (await ensureEmbeddedDatabaseBinary(log));
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  let storage: string[];
  if (options.postgresqlUrl) {
    storage = ['-handler', 'postgresql', '-postgresql-url', options.postgresqlUrl];
  } else {
    const dataDir = join(options.dataDir, 'db');
    await mkdir(dataDir, { recursive: true });
    storage = ['-data', dataDir];
  }

  const child: ChildProcess = spawn(
    binary,
    [
      ...storage,
      ...(options.lookupIndexes === false ? ['-index-interval', '0'] : []),
      '-listen',
      options.listen ?? '127.0.0.1:0',
      '-log-level',
      'error',
    ],
    // stdin stays open as a lifeline: the launcher exits when this process dies and it closes.
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });

  const uri = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new EmbeddedDatabaseError(`The embedded database did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolvePromise((JSON.parse(line) as { uri: string }).uri);
      } catch {
        reject(new EmbeddedDatabaseError(`Unexpected output from the embedded database: ${line}`));
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new EmbeddedDatabaseError(`Cannot run the embedded database ${binary}: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new EmbeddedDatabaseError(
          `The embedded database exited with code ${code} before it was ready${stderr ? `:\n${stderr.trim()}` : ''}`,
        ),
      );
    });
  });

  try {
    await waitForPing(uri, Date.now() + startTimeoutMs);
  } catch (error) {
    child.kill('SIGKILL'); // never leave a half-started database behind
    throw error;
  }

  let stopped: Promise<void> | null = null;
  return {
    uri,
    pid: child.pid!,
    stop() {
      stopped ??= new Promise<void>((resolvePromise) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolvePromise();
        });
        child.kill('SIGTERM');
      });
      return stopped;
    },
  };
}
