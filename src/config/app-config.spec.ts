import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      publicUrlSet: false,
      mongodbUri: null,
      dataDir: '/srv/app/data',
      authSecret: null,
      adminEmails: [],
      trustProxy: false,
      cookieSecure: false,
      requestTimeoutMs: 5000,
      compression: true,
    });
  });

  it('says whether PUBLIC_URL was set or guessed (the guess lets loopback origins write)', () => {
    expect(loadConfig({ PUBLIC_URL: '  ' }).publicUrlSet).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).publicUrlSet).toBe(true);
  });

  it('listens on loopback unless HOST says otherwise (the Dockerfile sets 0.0.0.0)', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
  });

  it('compresses pages unless COMPRESSION=off (a compressing proxy in front), and refuses any other value', () => {
    expect(loadConfig({ COMPRESSION: 'on' }).compression).toBe(true);
    expect(loadConfig({ COMPRESSION: ' OFF ' }).compression).toBe(false);
    expect(() => loadConfig({ COMPRESSION: 'false' })).toThrow('COMPRESSION must be on or off (got "false")');
  });

  it('publishes the bundled companion builds on a fresh site unless told not to (and not under test unless told to)', () => {
    expect(loadConfig({}, '/srv/hitscope').companionBuilds).toEqual({ dir: '/srv/hitscope/dist/companions', publishOnStart: true });
    expect(loadConfig({ NODE_ENV: 'test' }).companionBuilds.publishOnStart).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', PUBLISH_BUNDLED_BUILDS: 'ON' }).companionBuilds.publishOnStart).toBe(true);
    expect(loadConfig({ PUBLISH_BUNDLED_BUILDS: 'off', COMPANION_BUILDS_DIR: '/opt/builds' }).companionBuilds).toEqual({
      dir: '/opt/builds',
      publishOnStart: false,
    });
    expect(() => loadConfig({ PUBLISH_BUNDLED_BUILDS: 'yes' })).toThrow('PUBLISH_BUNDLED_BUILDS must be on or off (got "yes")');
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

  it('stores ADMIN_EMAILS in the normal form of addresses, and refuses an entry that is not one', () => {
    expect(loadConfig({ ADMIN_EMAILS: 'Boss@München.DE' }).adminEmails).toEqual(['boss@xn--mnchen-3ya.de']);
    expect(() => loadConfig({ ADMIN_EMAILS: 'ada@example.test,"a@b"@c.test' })).toThrow(
      'ADMIN_EMAILS must be a comma-separated list of e-mail addresses ("\\"a@b\\"@c.test" is not one)',
    );
  });

  it('allows every browser extension to call the licensing API by default, or the configured origins', () => {
    expect(loadConfig({}).licensingCorsOrigins).toEqual(['chrome-extension://*', 'moz-extension://*', 'safari-web-extension://*']);
    expect(loadConfig({ LICENSING_CORS_ORIGINS: ' chrome-extension://abc , https://app.example ' }).licensingCorsOrigins).toEqual([
      'chrome-extension://abc',
      'https://app.example',
    ]);
    expect(() => loadConfig({ LICENSING_CORS_ORIGINS: 'https://app.example/path,*' })).toThrow(
      'LICENSING_CORS_ORIGINS entries must be origins (https://app.example) or scheme://* (got "https://app.example/path")',
    );
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
  describe('Stripe billing', () => {
    const complete = { STRIPE_SECRET_KEY: 'sk_test_1234567890abcdef', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12345678' };

    it('is off unless both secrets are set, and lists the webhook secrets of a rotation', () => {
      expect(loadConfig({}).stripe).toBeNull();
      expect(loadConfig(complete).stripe).toEqual({
        secretKey: complete.STRIPE_SECRET_KEY,
        webhookSecrets: ['whsec_abcdefgh12345678'],
        apiBase: null,
        termsConsent: 'required',
      });
      expect(loadConfig({ ...complete, STRIPE_WEBHOOK_SECRET: ' whsec_old12345678 , whsec_new12345678 ' }).stripe?.webhookSecrets).toEqual([
        'whsec_old12345678',
        'whsec_new12345678',
      ]);
    });

    it('refuses half a configuration and keys of the wrong kind', () => {
      expect(() => loadConfig({ STRIPE_SECRET_KEY: complete.STRIPE_SECRET_KEY })).toThrow('(missing: STRIPE_WEBHOOK_SECRET)');
      expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: complete.STRIPE_WEBHOOK_SECRET })).toThrow('(missing: STRIPE_SECRET_KEY)');
      expect(() => loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow('STRIPE_API_BASE needs');
      expect(() => loadConfig({ ...complete, STRIPE_SECRET_KEY: 'pk_test_1234567890abcdef' })).toThrow('must be a secret key');
      expect(() => loadConfig({ ...complete, STRIPE_WEBHOOK_SECRET: 'whsec_ok12345678,nope' })).toThrow('(whsec_…)');
    });

    it('asks for the terms at Checkout unless STRIPE_TERMS_CONSENT is off, and refuses other values', () => {
      expect(loadConfig({ ...complete, STRIPE_TERMS_CONSENT: 'off' }).stripe?.termsConsent).toBe('off');
      expect(() => loadConfig({ ...complete, STRIPE_TERMS_CONSENT: 'yes' })).toThrow('STRIPE_TERMS_CONSENT must be "required" or "off"');
    });

    it('says which characters a webhook secret may have, and which entry of a rotation is wrong, without echoing it', () => {
      const refusal = (secret: string) => {
        try {
          loadConfig({ ...complete, STRIPE_WEBHOOK_SECRET: secret });
        } catch (error) {
          return (error as Error).message;
        }
        throw new Error(`${secret} was accepted`);
      };
      const allowed = 'each is "whsec_" and then at least 8 characters of A-Z, a-z, 0-9, "+", "/" and "=", with no spaces or quotes';
      expect(refusal('"whsec_abcdefgh12345678"')).toContain(allowed);
      expect(refusal('whsec_ok12345678,whsec_bad-secret-1234')).toContain('(not so: entry 2 of 2)');
      expect(refusal('whsec_ok12345678,whsec_bad-secret-1234')).not.toContain('bad-secret');
    });

    it('takes another API host: https anywhere, http on loopback only (stripe-mock)', () => {
      expect(loadConfig({ ...complete, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripe?.apiBase).toEqual({
        protocol: 'http',
        host: '127.0.0.1',
        port: 12111,
      });
      expect(loadConfig({ ...complete, STRIPE_API_BASE: 'https://stripe.internal' }).stripe?.apiBase).toEqual({
        protocol: 'https',
        host: 'stripe.internal',
        port: 443,
      });
      expect(() => loadConfig({ ...complete, STRIPE_API_BASE: 'http://stripe.internal' })).toThrow('STRIPE_API_BASE must be');
      expect(() => loadConfig({ ...complete, STRIPE_API_BASE: 'https://stripe.internal/v1' })).toThrow('STRIPE_API_BASE must be');
    });
  });

  describe('S3 file storage', () => {
    const keys = { S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'secret/key+value' };

    it('is off (GridFS) without S3_BUCKET, on with it, with AWS defaults', () => {
      expect(loadConfig({}).s3).toBeNull();
      expect(loadConfig({ S3_BUCKET: 'hitscope-files' }).s3).toEqual({
        bucket: 'hitscope-files',
        region: 'us-east-1',
        endpoint: null,
        accessKeyId: null,
        secretAccessKey: null,
        forcePathStyle: false,
        prefix: '',
      });
    });

    it('reads an S3-compatible endpoint, path-style addressing, keys and a prefix', () => {
      const config = loadConfig({
        S3_BUCKET: 'avatars.example',
        S3_REGION: 'auto',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: '/hitscope/prod',
        ...keys,
      });
      expect(config.s3).toEqual({
        bucket: 'avatars.example',
        region: 'auto',
        endpoint: 'http://127.0.0.1:9000',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'secret/key+value',
        forcePathStyle: true,
        prefix: 'hitscope/prod/',
      });
      expect(loadConfig({ S3_BUCKET: 'b-1', S3_PREFIX: 'files/' }).s3?.prefix).toBe('files/');
    });

    it('stops start-up on any S3 setting without S3_BUCKET, rather than silently keeping files in GridFS', () => {
      expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', ...keys })).toThrow(
        'S3 file storage needs S3_BUCKET (set without it: S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)',
      );
    });

    it('reports every bad S3 value at once', () => {
      let error: unknown;
      try {
        loadConfig({
          S3_BUCKET: 'My_Bucket',
          S3_REGION: 'EU West',
          S3_ENDPOINT: 'minio:9000',
          S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
          S3_FORCE_PATH_STYLE: 'yes',
          S3_PREFIX: 'a/../b',
        });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens (got "My_Bucket")',
        'S3_REGION must be a region name such as us-east-1 or auto (got "EU West")',
        'S3_ENDPOINT must be an http(s) URL without query or credentials, such as https://s3.example.com (got "minio:9000")',
        'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (missing: S3_SECRET_ACCESS_KEY)',
        'S3_FORCE_PATH_STYLE must be true or false (got "yes")',
        'S3_PREFIX may hold letters, digits, "/", "-", "_", "." and "!*\'()" only, at most 200 (got "a/../b")',
      ]);
      expect(() => loadConfig({ S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'https://user:pw@s3.example.com' })).toThrow('S3_ENDPOINT must be');
      expect(() => loadConfig({ S3_BUCKET: 'ok-bucket', S3_SECRET_ACCESS_KEY: 'x' })).toThrow('(missing: S3_ACCESS_KEY_ID)');
    });
  });
});
