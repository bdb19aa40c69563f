import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root.js';
import { testDatabaseUri } from '../support/test-database.js';

/** Starts the production build as `npm start` does and returns its output once it listens. */
async function startProduction(extraEnv: Record<string, string> = {}): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    MONGODB_URI: testDatabaseUri('startup'),
    ...extraEnv,
  };
  // The defaults a fresh deployment gets: no LOG_LEVEL, no AUTH_SECRET (which must warn).
  if (!extraEnv.LOG_LEVEL) delete env.LOG_LEVEL;
  delete env.AUTH_SECRET;
  const child: ChildProcess = spawn(process.execPath, [join(PROJECT_ROOT, 'dist/app/src/main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 20 s:\n${output}`)), 20_000);
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Hitscope is listening on /.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the app exited (${code}) before listening:\n${output}`));
      });
    });
  } finally {
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  // eslint-disable-next-line no-control-regex
  return output.replace(/\u001b\[[0-9;]*m/g, '');
}

const ROUTE_MAPPING = /Mapped \{|\[RoutesResolver\]|\[RouterExplorer\]|\[InstanceLoader\]|dependencies initialized/;

describe('production start-up log', () => {
  it('prints no route-mapping or module lines at the default LOG_LEVEL, and keeps warnings and the address', async () => {
    const output = await startProduction();
    const lines = output.split('\n').filter((line) => line.trim());
    expect(lines.filter((line) => ROUTE_MAPPING.test(line))).toEqual([]);
    expect(output).toMatch(/LOG \[Bootstrap\] Hitscope is listening on http:\/\/127\.0\.0\.1:\d+ \(production\)\n/);
    expect(output).toMatch(/WARN \[SecretsService\] AUTH_SECRET is not set/);
    // A fresh database: the default plans are on sale from now on, and the log says where to change them.
    expect(output).toMatch(/LOG \[CatalogueService\] Catalogue: 6 default plans created \(.+\)\. Change .+ in \/admin\/settings#catalogue/);
    expect(lines.length).toBeLessThan(10);
  }, 30_000);

  it('shows them with LOG_LEVEL=debug', async () => {
    const output = await startProduction({ LOG_LEVEL: 'debug' });
    expect(output).toMatch(/DEBUG \[RouterExplorer\] Mapped \{\/api\/auth\/login, POST\} route/);
    expect(output).toMatch(/DEBUG \[InstanceLoader\] \w+ dependencies initialized/);
  }, 30_000);
});
