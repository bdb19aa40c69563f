import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      mongodbUri: null,
      dataDir: '/srv/app/data',
      authSecret: null,
      adminEmails: [],
      trustProxy: false,
      cookieSecure: false,
      requestTimeoutMs: 5000,
    });
  });

  it('parses lists, proxies and secure cookies', () => {
    const config = loadConfig({
      ADMIN_EMAILS: ' Ada@Example.test, ,bob@example.test',
      TRUST_PROXY: '2',
      PUBLIC_URL: 'https://hitscope.example/some/path',
      DATA_DIR: '/var/lib/hitscope',
    });
    expect(config.adminEmails).toEqual(['ada@example.test', 'bob@example.test']);
    expect(config.trustProxy).toBe(2);
    expect(config.publicUrl).toBe('https://hitscope.example');
    expect(config.cookieSecure).toBe(true);
    expect(config.dataDir).toBe('/var/lib/hitscope');
  });

  it('reports every problem at once with a readable message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', MONGODB_URI: 'postgres://x', AUTH_SECRET: 'short', NODE_ENV: 'staging' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'NODE_ENV must be development, production or test (got "staging")',
      'PORT must be an integer from 0 to 65535 (got "eighty")',
      'MONGODB_URI must start with mongodb:// or mongodb+srv://',
      'AUTH_SECRET must be at least 32 characters',
    ]);
  });
});
