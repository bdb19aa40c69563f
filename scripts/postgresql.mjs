#!/usr/bin/env node
// A throw-away PostgreSQL server from the machine's own installation (Debian's `postgresql`
// package), for FerretDB's PostgreSQL backend: the Jest suites' pool run (`npm run
// test:server:pool`), the browser suite's two-instance journeys and the benchmark's engine
// comparison. A fresh cluster in a temporary folder (initdb, about half a second), on 127.0.0.1 and a
// free port, trust authentication for loopback only, removed when stopped.
//
//   node scripts/postgresql.mjs start   starts one in the foreground and prints its URL; Ctrl-C stops it
//
// PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user that
// Debian's package creates, and the server runs as that user.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

export class PostgresqlUnavailableError extends Error {}

/**
 * The folder of `postgres` and `initdb`: POSTGRESQL_BIN, else the newest of Debian's
 * /usr/lib/postgresql/<major>/bin, else `pg_config --bindir`. Null when there is none.
 */
export function findPostgresqlBin() {
  const fromEnv = process.env.POSTGRESQL_BIN?.trim();
  if (fromEnv) return existsSync(join(fromEnv, 'postgres')) ? fromEnv : null;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(debian, name, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors.length) return join(debian, majors[0], 'bin');
  }
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const bindir = pgConfig.status === 0 ? pgConfig.stdout.trim() : '';
  return bindir && existsSync(join(bindir, 'postgres')) ? bindir : null;
}

/** The uid and gid the server runs as: ours, or the `postgres` account's when we are root. */
function serverAccount() {
  if (process.getuid?.() !== 0) return {};
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) {
    throw new PostgresqlUnavailableError('PostgreSQL refuses to run as root and there is no `postgres` user to run it as');
  }
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const canConnect = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts a fresh cluster and answers `{ url, pid, dataDir, stop() }`; `url` names the `postgres`
 * database, in which FerretDB keeps one schema per MongoDB database. `durable: false` (the tests)
 * turns fsync off; the benchmark keeps PostgreSQL's defaults, to compare like with like.
 */
export async function startPostgresql({ log = console.log, durable = false } = {}) {
  const bin = findPostgresqlBin();
  if (!bin) {
    throw new PostgresqlUnavailableError(
      'No PostgreSQL server found (looked in POSTGRESQL_BIN, /usr/lib/postgresql/*/bin and pg_config): apt-get install postgresql',
    );
  }
  const account = serverAccount();
  const dataDir = await mkdtemp(join(tmpdir(), 'hitscope-postgresql-'));
  if (account.uid !== undefined) chownSync(dataDir, account.uid, account.gid);
  const cluster = join(dataDir, 'data');
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });

  const initdb = spawnSync(
    join(bin, 'initdb'),
    ['-D', cluster, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions'],
    { encoding: 'utf8', ...account },
  );
  if (initdb.status !== 0) {
    removeDataDir();
    throw new PostgresqlUnavailableError(`initdb failed: ${(initdb.stderr || initdb.stdout || String(initdb.error)).trim()}`);
  }

  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    // The socket in the cluster's own folder, not /var/run/postgresql (which a non-root user may not write).
    unix_socket_directories: dataDir,
    max_connections: '200',
    ...(durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
  const child = spawn(
    join(bin, 'postgres'),
    ['-D', cluster, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...account,
    },
  );
  let output = '';
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-8000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 30_000;
  while (!/ready to accept connections/.test(output) || !(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      removeDataDir();
      throw new PostgresqlUnavailableError(`PostgreSQL did not start:\n${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  log(`PostgreSQL ${bin.split('/').at(-2) ?? ''} on 127.0.0.1:${port}, cluster in ${cluster}`);

  let stopping = null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: child.pid,
    dataDir,
    stop() {
      // SIGINT: PostgreSQL's fast shutdown (ends sessions, no wait for clients to leave).
      stopping ??= (async () => {
        if (child.exitCode === null) {
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.kill('SIGINT');
          await exited;
          clearTimeout(killer);
        }
        removeDataDir();
      })();
      return stopping;
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] !== 'start') {
    console.error('usage: node scripts/postgresql.mjs start');
    process.exit(2);
  }
  const server = await startPostgresql();
  console.log(`PostgreSQL listening at ${server.url} (pid ${server.pid}, loopback only); Ctrl-C stops it and removes its data`);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.stop().then(() => process.exit(0)));
}
