import { Inject, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { normaliseEmailAddress } from '../../../lib/accounts/email-address.js';
import { cleanPersonName } from '../../../lib/accounts/person-name.js';
import { APP_CONFIG, type AppConfig, type OidcConfig } from '../../config/app-config.js';
import { OidcException } from './oidc.exception.js';
import { OIDC_TRANSACTION_TTL_MS, type OidcTransaction } from './oidc-transaction.js';

export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
const SCOPE = 'openid email profile';

/** What a completed provider sign-in tells us about the person. */
export interface OidcIdentityClaims {
  /** From the validated ID token: the link key together with `subject`. */
  issuer: string;
  subject: string;
  email: string | null;
  /** Only a literal `true` counts: some providers send "true" strings or omit the claim. */
  emailVerified: boolean;
  name: string | null;
}

const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  status?: unknown;
  cause?: unknown;
}

/**
 * The provider could not be reached, timed out or answered 5xx (as opposed to refusing this
 * sign-in). Duck-typed along the cause chain: openid-client wraps errors it does not know, and
 * fetch's errors are not always instances of this realm's Error classes.
 */
function isUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, message, code, status, cause } = current as ErrorLike;
    if (name === 'TimeoutError' || name === 'AbortError' || code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT') return true;
    if (name === 'TypeError' && message === 'fetch failed') return true;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    if (typeof status === 'number' && status >= 500) return true; // the provider's own Response
    current = cause;
  }
  return false;
}

function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, message, code } = current as ErrorLike;
    if (typeof message === 'string') parts.push(`${String(name ?? 'Error')}: ${message}${typeof code === 'string' ? ` [${code}]` : ''}`);
    current = (current as ErrorLike).cause;
  }
  return parts.join(' <- ') || String(error);
}

/**
 * The OpenID Connect relying party: discovery, the authorization request (code flow, PKCE S256,
 * state, nonce) and the code exchange with ID token validation, all through `openid-client`.
 * Discovery happens on first use and is cached; a failed discovery is not cached, so a provider
 * that was down at start-up is picked up as soon as it is back.
 */
@Injectable()
export class OidcClientService {
  private readonly logger = new Logger(OidcClientService.name);
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Every provider call of one request must end before the API's request timeout would answer a
   * JSON 503 to what is a browser navigation: the sign-in then ends on /login with an explanation.
   */
  private get deadlineMs(): number {
    return Math.max(1000, this.config.requestTimeoutMs - 1000);
  }

  private get settings(): OidcConfig {
    if (!this.config.oidc) throw new OidcException('unavailable', 'OpenID Connect sign-in is not configured');
    return this.config.oidc;
  }

  get redirectUri(): string {
    return `${this.config.publicUrl}${OIDC_CALLBACK_PATH}`;
  }

  private configuration(): Promise<oidc.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = null;
      throw error;
    });
    return this.discovered;
  }

  private async discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const url = new URL(issuer);
    return oidc.discovery(url, clientId, { client_secret: clientSecret }, oidc.ClientSecretBasic(clientSecret), {
      // The same timeout then applies to every later request made with this configuration.
      timeout: Math.ceil(this.deadlineMs / 1000),
      // Config validation only lets plain http through for a provider on loopback.
      execute: url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
    });
  }

  /** Step 1: the provider's authorization URL, and the transaction the callback will need. */
  async begin(redirect: string): Promise<{ authorizationUrl: URL; transaction: OidcTransaction }> {
    return this.withinDeadline('discovery', async () => {
      const configuration = await this.configuration();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const transaction: OidcTransaction = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier,
        redirect,
        expiresAt: Date.now() + OIDC_TRANSACTION_TTL_MS,
      };
      const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: this.redirectUri,
        scope: SCOPE,
        state: transaction.state,
        nonce: transaction.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { authorizationUrl, transaction };
    });
  }

  /**
   * Step 2: checks the authorization response against the transaction (state, and `iss` when the
   * provider sends it), redeems the code with the PKCE verifier, validates the ID token (signature,
   * iss, aud, exp, nonce) and reads the claims. Providers often put e-mail and name only in the
   * userinfo response; it is fetched with the access token and must be about the same subject.
   */
  async complete(callbackUrl: URL, transaction: OidcTransaction): Promise<OidcIdentityClaims> {
    return this.withinDeadline('code exchange', async () => {
      const configuration = await this.configuration();
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        pkceCodeVerifier: transaction.codeVerifier,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new OidcException('failed', 'The provider returned no ID token');
      let claims: Record<string, unknown> = { ...idToken };
      if (configuration.serverMetadata().userinfo_endpoint) {
        claims = { ...claims, ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)) };
      }
      // The same rule as the registration form's: an address it refuses counts as no address.
      const email = normaliseEmailAddress(claims.email);
      return {
        issuer: idToken.iss,
        subject: idToken.sub,
        email,
        emailVerified: claims.email_verified === true,
        name: displayNameOf(claims),
      };
    });
  }

  private async withinDeadline<T>(step: string, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`${step} took longer than ${this.deadlineMs} ms`), { name: 'TimeoutError' })),
        this.deadlineMs,
      );
    });
    try {
      return await Promise.race([work(), deadline]);
    } catch (error) {
      throw this.classify(step, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `unavailable` when the provider is down or slow, `failed` when it (or the response) says no. */
  private classify(step: string, error: unknown): OidcException {
    if (error instanceof OidcException) return error;
    const detail = describeError(error);
    if (isUnreachable(error)) {
      this.logger.warn(`OpenID Connect ${step} failed, provider unavailable: ${detail}`);
      return new OidcException('unavailable', 'The sign-in provider cannot be reached');
    }
    // Discovery that answers but does not validate (wrong issuer, bad metadata) is a configuration
    // problem the operator must see; for the visitor the provider is simply not usable.
    if (step === 'discovery') {
      this.logger.error(`OpenID Connect discovery of ${this.settings.issuer} failed: ${detail}`);
      return new OidcException('unavailable', 'The sign-in provider cannot be used');
    }
    this.logger.warn(`OpenID Connect ${step} refused: ${detail}`);
    return new OidcException('failed', 'The provider sign-in could not be completed');
  }
}

function displayNameOf(claims: Record<string, unknown>): string | null {
  const text = (value: unknown) => (typeof value === 'string' && cleanPersonName(value) ? cleanPersonName(value) : null);
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return text(claims.name) ?? (given || null) ?? text(claims.preferred_username) ?? text(claims.nickname);
}
