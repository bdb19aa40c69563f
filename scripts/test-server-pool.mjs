#!/usr/bin/env node
// `npm run test:server:pool`: the whole Jest server suite a second time, against FerretDB on a
// throw-away PostgreSQL server reached through a pool of connections (test/support/global-setup.mjs,
// HITSCOPE_TEST_ENGINE=postgresql): what several app instances on one database, or MongoDB, look
// like to the code. Nothing may rely on the one connection the app otherwise takes to the embedded
// database (docs/database.md, "Several connections").
//
// PostgreSQL comes from the machine (Debian's `postgresql` package; scripts/postgresql.mjs). Without
// it the run is skipped with a notice, unless HITSCOPE_REQUIRE_POSTGRESQL=1 (set by .ci/run, which
// installs it): then a missing or broken PostgreSQL fails the run loudly.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresqlBin } from './postgresql.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const required = process.env.HITSCOPE_REQUIRE_POSTGRESQL === '1';

if (process.env.MONGODB_URI) {
  console.log('test:server:pool: MONGODB_URI is set, so test:server already ran against that server; nothing more to run.');
  process.exit(0);
}
if (!findPostgresqlBin()) {
  const message = 'No PostgreSQL server on this machine (apt-get install postgresql, or POSTGRESQL_BIN=<folder of postgres and initdb>)';
  if (required) {
    console.error(`test:server:pool FAILED: ${message}, and HITSCOPE_REQUIRE_POSTGRESQL=1 says this run needs it.`);
    process.exit(1);
  }
  console.log(`test:server:pool skipped: ${message}. CI installs it and runs this suite.`);
  process.exit(0);
}

const jest = spawn(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    HITSCOPE_TEST_ENGINE: 'postgresql',
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' '),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => jest.kill(signal));
jest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
