import { isAbsolute, resolve } from 'node:path';
import { normaliseEmailAddress } from '../../lib/accounts/email-address.js';

export type NodeEnv = 'development' | 'production' | 'test';

/** Typed configuration, read from the environment once at start-up (see README "Configuration"). */
export interface AppConfig {
  nodeEnv: NodeEnv;
  host: string;
  port: number;
  /** Absolute origin used in canonical URLs, the sitemap and e-mails. */
  publicUrl: string;
  /**
   * PUBLIC_URL was set. When it was not, `publicUrl` is a guess (`http://localhost:PORT`) and a
   * write from the loopback origin the request came to counts as our own (src/auth/csrf/request-origin.ts).
   */
  publicUrlSet: boolean;
  /** Unset: start the embedded FerretDB under `dataDir`. */
  mongodbUri: string | null;
  dataDir: string;
  /** Signing secret for session tokens and CSRF tokens; generated and stored in the database when unset. */
  authSecret: string | null;
  adminEmails: readonly string[];
  /** Express `trust proxy` value: false, true, a hop count or a list of addresses. */
  trustProxy: boolean | number | string;
  cookieSecure: boolean;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** Path of a prebuilt embedded database binary (Docker); unset: build from database-launcher/. */
  embeddedDbBinary: string | null;
  /** DATABASE_SLOW_MS: database commands slower than this are logged with their shape; 0: none. */
  databaseSlowMs: number;
  /** How long an API request may take before it answers 503. */
  requestTimeoutMs: number;
  /** Memory for anonymous pages served from the page cache (src/ssr/page-cache.ts); 0 turns it off. */
  pageCacheMaxBytes: number;
  /**
   * COMPRESSION=on (default): pages and API answers are gzip-compressed per request. `off`, for a
   * deployment behind a compressing proxy: they go out as they are. The build's precompressed
   * .br/.gz files are served either way (they cost no CPU, and a proxy passes an encoded answer on).
   */
  compression: boolean;
  /** `smtp://user:pass@host:587` or `smtps://…`; unset: messages are kept in the outbox collection and logged. */
  smtpUrl: string | null;
  /** The From header of every message. */
  mailFrom: string;
  /** Scales every abuse limit (sign-in, registration…); 1 in production, raised by test servers. */
  rateLimitMultiplier: number;
  /**
   * Origins allowed to call the licensing API from a browser (CORS): exact origins, or `scheme://*`
   * for every origin of a scheme. Default: any browser extension (the API takes no cookies, so CORS
   * is not what protects it; see src/licences/licensing-cors.middleware.ts).
   */
  licensingCorsOrigins: readonly string[];
  /** "Continue with {displayName}" through an OpenID Connect provider; null when OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  /** Files (avatars…) go to this S3-compatible bucket; null when S3_BUCKET is unset (GridFS in the database). */
  s3: S3Config | null;
  /** Payments through Stripe; null when STRIPE_SECRET_KEY is unset (billing "not configured"). */
  stripe: StripeConfig | null;
  /**
   * Where `npm run build` writes the companion packages (dist/companions, with packages.json), and
   * whether a site with no release of a product publishes the bundled build of it on start-up
   * (PUBLISH_BUNDLED_BUILDS=on|off; on by default, off in tests unless set).
   */
  companionBuilds: { dir: string; publishOnStart: boolean };
}

export interface StripeConfig {
  secretKey: string;
  /** Every secret that may have signed a webhook: several during a rotation (comma-separated). */
  webhookSecrets: readonly string[];
  /** Another API host (tests: stripe-mock on loopback); null: Stripe's own. */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
  /** Checkout's terms checkbox (STRIPE_TERMS_CONSENT; src/billing/checkout-consent.ts). */
  termsConsent: TermsConsent;
}

/** `required`: a checkbox at Checkout (needs a terms URL in Stripe's dashboard); `off`: the words beside the pay button only. */
export type TermsConsent = 'required' | 'off';

export interface S3Config {
  bucket: string;
  region: string;
  /** Custom endpoint for S3-compatible services (MinIO, R2…); null: AWS's own endpoint for the region. */
  endpoint: string | null;
  /** Both null: the AWS SDK's default credential chain (AWS_* variables, instance or task role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** Prepended to every key: empty, or ends with "/". */
  prefix: string;
}

export interface OidcConfig {
  /** The issuer identifier exactly as configured; discovery appends /.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in screens; defaults to the issuer's host name. */
  displayName: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

/** Parses and validates the environment. Every problem is reported at once, then start-up stops. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const problems: string[] = [];
  const str = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const nodeEnvRaw = str('NODE_ENV') ?? 'development';
  const nodeEnv: NodeEnv = ['development', 'production', 'test'].includes(nodeEnvRaw)
    ? (nodeEnvRaw as NodeEnv)
    : (problems.push(`NODE_ENV must be development, production or test (got "${nodeEnvRaw}")`), 'development');

  const port = int('PORT', 3000, 0, 65535);
  // Loopback unless told otherwise: a laptop's `npm start` is not for the café's network. A container
  // sets HOST=0.0.0.0 (the Dockerfile does), as does a server behind its proxy.
  const host = str('HOST') ?? '127.0.0.1';

  let publicUrl = str('PUBLIC_URL') ?? `http://localhost:${port}`;
  try {
    const url = new URL(publicUrl);
    if (!['http:', 'https:'].includes(url.protocol)) throw new Error('protocol');
    publicUrl = url.origin;
  } catch {
    problems.push(`PUBLIC_URL must be an absolute http(s) URL (got "${publicUrl}")`);
  }

  const mongodbUri = str('MONGODB_URI');
  if (mongodbUri && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
    problems.push('MONGODB_URI must start with mongodb:// or mongodb+srv://');
  }

  const dataDirRaw = str('DATA_DIR') ?? './data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const smtpUrl = str('SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');

  const authSecret = str('AUTH_SECRET');
  if (authSecret && authSecret.length < 32) problems.push('AUTH_SECRET must be at least 32 characters');

  // In the stored form of addresses, so that `Ada@München.de` here matches `ada@xn--mnchen-3ya.de`.
  const adminEmails: string[] = [];
  for (const entry of (str('ADMIN_EMAILS') ?? '').split(',')) {
    if (!entry.trim()) continue;
    const email = normaliseEmailAddress(entry);
    if (email) adminEmails.push(email);
    else problems.push(`ADMIN_EMAILS must be a comma-separated list of e-mail addresses (${JSON.stringify(entry.trim())} is not one)`);
  }

  const trustProxyRaw = str('TRUST_PROXY') ?? 'false';
  let trustProxy: AppConfig['trustProxy'];
  if (trustProxyRaw === 'true' || trustProxyRaw === 'false') trustProxy = trustProxyRaw === 'true';
  else if (/^\d+$/.test(trustProxyRaw)) trustProxy = Number(trustProxyRaw);
  else trustProxy = trustProxyRaw;

  const cookieSecureRaw = str('COOKIE_SECURE');
  const cookieSecure = cookieSecureRaw === null ? publicUrl.startsWith('https:') : cookieSecureRaw === 'true';

  const logLevelRaw = str('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'warn' : 'log');
  if (!LOG_LEVELS.includes(logLevelRaw as AppConfig['logLevel'])) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}")`);
  }

  const compressionRaw = (str('COMPRESSION') ?? 'on').toLowerCase();
  if (compressionRaw !== 'on' && compressionRaw !== 'off') problems.push(`COMPRESSION must be on or off (got "${compressionRaw}")`);

  const publishRaw = (str('PUBLISH_BUNDLED_BUILDS') ?? (nodeEnv === 'test' ? 'off' : 'on')).toLowerCase();
  if (publishRaw !== 'on' && publishRaw !== 'off') problems.push(`PUBLISH_BUNDLED_BUILDS must be on or off (got "${publishRaw}")`);
  const buildsDirRaw = str('COMPANION_BUILDS_DIR') ?? './dist/companions';

  const oidc = readOidcConfig(str, problems);
  const s3 = readS3Config(str, problems);
  const stripe = readStripeConfig(str, problems);

  const config: AppConfig = {
    nodeEnv,
    host,
    port,
    publicUrl,
    publicUrlSet: str('PUBLIC_URL') !== null,
    mongodbUri,
    dataDir,
    authSecret,
    adminEmails,
    trustProxy,
    cookieSecure,
    logLevel: LOG_LEVELS.includes(logLevelRaw as AppConfig['logLevel']) ? (logLevelRaw as AppConfig['logLevel']) : 'log',
    embeddedDbBinary: str('EMBEDDED_DB_BINARY'),
    databaseSlowMs: int('DATABASE_SLOW_MS', 0, 0, 600_000),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 5000, 500, 120_000),
    pageCacheMaxBytes: int('PAGE_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
    compression: compressionRaw !== 'off',
    smtpUrl: str('SMTP_URL'),
    mailFrom: str('MAIL_FROM') ?? 'Hitscope <no-reply@hitscope.local>',
    rateLimitMultiplier: int('RATE_LIMIT_MULTIPLIER', 1, 1, 1_000_000),
    licensingCorsOrigins: readLicensingCorsOrigins(str('LICENSING_CORS_ORIGINS'), problems),
    oidc,
    s3,
    stripe,
    companionBuilds: { dir: isAbsolute(buildsDirRaw) ? buildsDirRaw : resolve(cwd, buildsDirRaw), publishOnStart: publishRaw === 'on' },
  };
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

export const DEFAULT_LICENSING_CORS_ORIGINS = ['chrome-extension://*', 'moz-extension://*', 'safari-web-extension://*'] as const;

function readLicensingCorsOrigins(raw: string | null, problems: string[]): readonly string[] {
  if (raw === null) return DEFAULT_LICENSING_CORS_ORIGINS;
  const origins = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^[a-z][a-z0-9+.-]*:\/\/(\*|[^/*\s]+)$/i.test(origin)) {
      problems.push(`LICENSING_CORS_ORIGINS entries must be origins (https://app.example) or scheme://* (got "${origin}")`);
    }
  }
  return origins;
}

const OIDC_REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * All or nothing: a half-configured provider is an operator mistake that should stop start-up, not
 * a sign-in button that fails for every visitor. Only the settings are checked here; the provider
 * itself is contacted on the first sign-in, so a provider that is down never stops the app.
 */
function readOidcConfig(str: (name: string) => string | null, problems: string[]): OidcConfig | null {
  const displayName = str('OIDC_DISPLAY_NAME');
  const [issuer, clientId, clientSecret] = OIDC_REQUIRED.map(str);
  if (!issuer && !clientId && !clientSecret && !displayName) return null;
  const missing = OIDC_REQUIRED.filter((name) => !str(name));
  if (missing.length) {
    problems.push(`OpenID Connect sign-in needs ${OIDC_REQUIRED.join(', ')} together (missing: ${missing.join(', ')})`);
    return null;
  }
  let url: URL;
  try {
    url = new URL(issuer!);
  } catch {
    problems.push(`OIDC_ISSUER must be an absolute URL (got "${issuer}")`);
    return null;
  }
  // Plain http would let anybody on the path swap the provider's keys; loopback is for local providers and tests.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    problems.push(`OIDC_ISSUER must be an https URL (http only on localhost) (got "${issuer}")`);
    return null;
  }
  if (url.search || url.hash) {
    problems.push(`OIDC_ISSUER must not have a query or fragment (got "${issuer}")`);
    return null;
  }
  if (displayName && displayName.length > 60) problems.push('OIDC_DISPLAY_NAME must be at most 60 characters');
  return { issuer: issuer!, clientId: clientId!, clientSecret: clientSecret!, displayName: displayName ?? url.hostname };
}

const S3_VARIABLES = [
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
] as const;

/**
 * S3 is chosen by S3_BUCKET alone. Any other S3_ setting without it is a mistake that would
 * silently keep files in GridFS, so it stops start-up instead. The bucket is not contacted here:
 * an unreachable bucket answers 503 on file requests and never stops the app.
 */
function readS3Config(str: (name: string) => string | null, problems: string[]): S3Config | null {
  const bucket = str('S3_BUCKET');
  if (!bucket) {
    const stray = S3_VARIABLES.filter((name) => str(name));
    if (stray.length) problems.push(`S3 file storage needs S3_BUCKET (set without it: ${stray.join(', ')})`);
    return null;
  }
  const before = problems.length;
  // The rules of S3 bucket names (3–63 characters, lowercase letters, digits, dots and hyphens).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    problems.push(`S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens (got "${bucket}")`);
  }
  const region = str('S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,40}$/.test(region)) problems.push(`S3_REGION must be a region name such as us-east-1 or auto (got "${region}")`);

  let endpoint = str('S3_ENDPOINT');
  if (endpoint) {
    try {
      const url = new URL(endpoint);
      if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username) throw new Error('shape');
      endpoint = url.toString().replace(/\/$/, '');
    } catch {
      problems.push(`S3_ENDPOINT must be an http(s) URL without query or credentials, such as https://s3.example.com (got "${endpoint}")`);
    }
  }

  const accessKeyId = str('S3_ACCESS_KEY_ID');
  const secretAccessKey = str('S3_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    problems.push(
      `S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (missing: ${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'})`,
    );
  }

  const pathStyleRaw = str('S3_FORCE_PATH_STYLE') ?? 'false';
  if (pathStyleRaw !== 'true' && pathStyleRaw !== 'false')
    problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyleRaw}")`);

  let prefix = str('S3_PREFIX') ?? '';
  if (prefix) {
    prefix = prefix.replace(/^\/+/, '');
    if (!/^[A-Za-z0-9!_.*'()/-]{1,200}$/.test(prefix) || prefix.split('/').some((part) => part === '.' || part === '..')) {
      problems.push(`S3_PREFIX may hold letters, digits, "/", "-", "_", "." and "!*'()" only, at most 200 (got "${prefix}")`);
    }
    if (!prefix.endsWith('/')) prefix += '/';
  }
  if (problems.length > before) return null;
  return { bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle: pathStyleRaw === 'true', prefix };
}

/** A webhook endpoint's signing secret as Stripe shows it: `whsec_` and base64 characters. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,}$/;

/**
 * Billing is on when the secret key and the webhook secret are both set: a key without a webhook
 * secret would take payments whose confirmations are then refused, so half a configuration stops
 * start-up. STRIPE_API_BASE alone (or with only one of them) is the same mistake.
 */
function readStripeConfig(str: (name: string) => string | null, problems: string[]): StripeConfig | null {
  const secretKey = str('STRIPE_SECRET_KEY');
  const webhookRaw = str('STRIPE_WEBHOOK_SECRET');
  const apiBaseRaw = str('STRIPE_API_BASE');
  if (!secretKey && !webhookRaw) {
    if (apiBaseRaw) problems.push('STRIPE_API_BASE needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    return null;
  }
  if (!secretKey || !webhookRaw) {
    problems.push(
      `Stripe billing needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together (missing: ${secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'})`,
    );
    return null;
  }
  const before = problems.length;
  // Secret (sk_) or restricted (rk_) keys only: a publishable key (pk_) here is a copy-paste mistake.
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/.test(secretKey)) {
    problems.push('STRIPE_SECRET_KEY must be a secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)');
  }
  const webhookSecrets = webhookRaw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const malformed = webhookSecrets.map((secret, index) => (WEBHOOK_SECRET.test(secret) ? null : index + 1)).filter((at) => at !== null);
  if (!webhookSecrets.length || malformed.length) {
    // Which entry, never its text: it is a secret.
    const which =
      malformed.length && webhookSecrets.length > 1 ? ` (not so: entry ${malformed.join(', ')} of ${webhookSecrets.length})` : '';
    problems.push(
      'STRIPE_WEBHOOK_SECRET must be one or more webhook signing secrets (whsec_…), comma-separated during a rotation: ' +
        `each is "whsec_" and then at least 8 characters of A-Z, a-z, 0-9, "+", "/" and "=", with no spaces or quotes${which}`,
    );
  }
  let apiBase: StripeConfig['apiBase'] = null;
  if (apiBaseRaw) {
    try {
      const url = new URL(apiBaseRaw);
      const protocol = url.protocol.slice(0, -1);
      if (protocol !== 'http' && protocol !== 'https') throw new Error('protocol');
      if (url.pathname !== '/' || url.search || url.hash || url.username) throw new Error('shape');
      // Plain http would hand the secret key to anybody on the path; loopback is for stripe-mock.
      if (protocol === 'http' && !LOOPBACK_HOSTS.has(url.hostname)) throw new Error('http');
      apiBase = {
        protocol,
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
      };
    } catch {
      problems.push(
        `STRIPE_API_BASE must be an https origin (http only on localhost), such as http://127.0.0.1:12111 (got "${apiBaseRaw}")`,
      );
    }
  }
  const termsConsent = (str('STRIPE_TERMS_CONSENT') ?? 'required') as TermsConsent;
  if (termsConsent !== 'required' && termsConsent !== 'off') {
    problems.push(`STRIPE_TERMS_CONSENT must be "required" or "off" (got "${termsConsent}")`);
  }
  if (problems.length > before) return null;
  return { secretKey, webhookSecrets, apiBase, termsConsent };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
