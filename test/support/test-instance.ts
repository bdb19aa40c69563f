import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { freePort } from './oidc-test-provider.js';

export interface TestInstance {
  running: RunningApp;
  /** `http://127.0.0.1:<port>`, where it listens (PUBLIC_URL unless `env` names another). */
  origin: string;
}

/**
 * Hitscope in-process on a loopback port of its own, for the suites that need a real port (a
 * provider redirecting browsers to it, several instances on one database, a shutdown under
 * traffic). `port` when the caller had to know it beforehand; `env` overrides the defaults.
 */
export async function startInstance(mongodbUri: string, env: Record<string, string> = {}, port?: number): Promise<TestInstance> {
  const listenPort = port ?? (await freePort());
  const origin = `http://127.0.0.1:${listenPort}`;
  const running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: mongodbUri,
      LOG_LEVEL: 'error',
      PORT: String(listenPort),
      PUBLIC_URL: origin,
      RATE_LIMIT_MULTIPLIER: '100',
      ...env,
    }),
  );
  await running.app.listen(listenPort, '127.0.0.1');
  return { running, origin };
}
