import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { default as Provider, InteractionResults, JWK } from 'oidc-provider';
import { freePort } from '../../scripts/free-port.mjs';

/** What the test provider says about a person (the claims of `openid email profile`). */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export const TEST_CLIENT = { id: 'hitscope-e2e', secret: 'a-client-secret-that-is-long-enough-for-hs256' } as const;

/**
 * oidc-provider 9 warns that it wants Node 22 (it runs fine on the Node 20 this project supports)
 * and that its in-memory store is for development: both true and expected for a test provider.
 * Only those two warnings are silenced, only while importing and constructing it.
 */
const EXPECTED_WARNINGS = [
  /^oidc-provider WARNING: Unsupported runtime/,
  /^oidc-provider WARNING: a quick start development-only in-memory adapter/,
];

async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!EXPECTED_WARNINGS.some((pattern) => pattern.test(String(args[0])))) warn(...args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}

/** A port that was free a moment ago (the app's PUBLIC_URL must be known before it listens). */
export { freePort };

/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback: one confidential client with PKCE
 * required, accounts the test controls, and a minimal interaction endpoint that signs in as
 * `nextLogin` (or refuses when it is null) and grants the requested scopes, like a user clicking
 * through the provider's screens.
 */
export class OidcTestProvider {
  readonly accounts = new Map<string, TestAccount>();
  nextLogin: string | null = null;
  private readonly server: Server;
  private provider: Provider | null = null;
  port = 0;

  constructor() {
    this.server = createServer((request, response) => {
      void this.handle(request, response).catch((error: Error) => {
        response.statusCode = 500;
        response.end(error.message);
      });
    });
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Listens on `port` (0: any), then configures the provider for the given redirect URI. */
  async start(redirectUri: string, port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.provider = await quietly(async () => {
      const { default: OidcProvider } = await import('oidc-provider');
      return new OidcProvider(this.issuer, {
        clients: [
          {
            client_id: TEST_CLIENT.id,
            client_secret: TEST_CLIENT.secret,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        pkce: { required: () => true },
        features: { devInteractions: { enabled: false } },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        jwks: { keys: [{ ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'e2e', use: 'sig', alg: 'RS256' }] },
        cookies: { keys: ['oidc-e2e-cookie-signing-key'] },
        ttl: { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
        findAccount: (_ctx, sub) => {
          const account = this.accounts.get(sub);
          return account ? { accountId: sub, claims: () => ({ sub, ...this.accounts.get(sub) }) } : undefined;
        },
      });
    });
    return this.issuer;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const provider = this.provider;
    if (!provider) throw new Error('provider not started');
    if (!request.url?.startsWith('/interaction/')) return provider.callback()(request, response);
    const details = await provider.interactionDetails(request, response);
    let result: InteractionResults;
    if (details.prompt.name === 'login') {
      result = this.nextLogin
        ? { login: { accountId: this.nextLogin } }
        : { error: 'access_denied', error_description: 'The user cancelled' };
    } else {
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
      grant.addOIDCScope(String(details.params.scope));
      result = { consent: { grantId: await grant.save() } };
    }
    await provider.interactionFinished(request, response, result, { mergeWithLastSubmission: true });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Just enough of a browser for redirect chains: cookies per host and port (names never clash
 * between the app and the provider), manual redirects.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** Every Set-Cookie header seen, for checking attributes. */
  readonly setCookies: string[] = [];

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(new URL(origin).host)?.get(name);
  }

  dropCookie(origin: string, name: string): void {
    this.jars.get(new URL(origin).host)?.delete(name);
  }

  async request(url: string | URL, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.jars.get(target.host) ?? new Map<string, string>();
    this.jars.set(target.host, jar);
    const headers: Record<string, string> = { accept: 'text/html,application/json', ...init.headers };
    if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(target, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    });
    for (const header of response.headers.getSetCookie()) {
      this.setCookies.push(header);
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attributes.some((attribute) => {
        const [key, setting = ''] = attribute.split('=');
        return (
          (key.toLowerCase() === 'max-age' && Number(setting) <= 0) ||
          (key.toLowerCase() === 'expires' && Date.parse(setting) <= Date.now())
        );
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /**
   * Follows redirects from `start` until `stop(url)` says the browser has arrived (by default: on
   * a page of `appOrigin`, outside /api) or a response is not a redirect. Returns where it stopped.
   */
  async follow(
    start: string | URL,
    appOrigin: string,
    stop = (url: URL) => url.origin === appOrigin && !url.pathname.startsWith('/api/'),
  ): Promise<URL> {
    let url = new URL(start);
    for (let hop = 0; hop < 20; hop += 1) {
      const response = await this.request(url);
      const location = response.headers.get('location');
      await response.arrayBuffer();
      if (response.status < 300 || response.status >= 400 || !location) return url;
      url = new URL(location, url);
      if (stop(url)) return url;
    }
    throw new Error(`Too many redirects (last: ${url.href})`);
  }
}
