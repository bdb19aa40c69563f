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

  describe('OpenID Connect', () => {
    const complete = { OIDC_ISSUER: 'https://login.example.com/realms/main', OIDC_CLIENT_ID: 'hitscope', OIDC_CLIENT_SECRET: 's3cret' };

    it('is off without settings, on with all three, named after the issuer host by default', () => {
      expect(loadConfig({}).oidc).toBeNull();
      expect(loadConfig(complete).oidc).toEqual({
        issuer: 'https://login.example.com/realms/main',
        clientId: 'hitscope',
        clientSecret: 's3cret',
        displayName: 'login.example.com',
      });
      expect(loadConfig({ ...complete, OIDC_DISPLAY_NAME: 'Acme SSO' }).oidc?.displayName).toBe('Acme SSO');
    });

    it('is all or nothing', () => {
      expect(() => loadConfig({ OIDC_ISSUER: complete.OIDC_ISSUER })).toThrow(ConfigError);
      expect(() => loadConfig({ OIDC_ISSUER: complete.OIDC_ISSUER, OIDC_CLIENT_ID: 'hitscope' })).toThrow(
        'OpenID Connect sign-in needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET together (missing: OIDC_CLIENT_SECRET)',
      );
      expect(() => loadConfig({ OIDC_DISPLAY_NAME: 'Acme SSO' })).toThrow('(missing: OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)');
    });

    it('wants https, except for a provider on this machine', () => {
      expect(() => loadConfig({ ...complete, OIDC_ISSUER: 'http://login.example.com' })).toThrow('OIDC_ISSUER must be an https URL');
      expect(() => loadConfig({ ...complete, OIDC_ISSUER: 'login.example.com' })).toThrow('OIDC_ISSUER must be an absolute URL');
      expect(() => loadConfig({ ...complete, OIDC_ISSUER: 'https://login.example.com/?tenant=1' })).toThrow('must not have a query');
      expect(loadConfig({ ...complete, OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidc?.issuer).toBe('http://127.0.0.1:4000');
      expect(loadConfig({ ...complete, OIDC_ISSUER: 'http://localhost:4000' }).oidc?.displayName).toBe('localhost');
    });
  });
});
