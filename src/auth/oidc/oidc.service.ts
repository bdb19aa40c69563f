import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OidcErrorCode } from '../../../lib/api/auth.js';
import { safeRedirectPath } from '../../../lib/http/safe-redirect.js';
import { HOME_AFTER_SIGN_IN, LOGIN_PATH } from '../../../lib/routes/route-middleware.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { SecretsService } from '../secrets.service.js';
import type { IssuedTokens } from '../sessions.service.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcClientService } from './oidc-client.service.js';
import { OidcException } from './oidc.exception.js';
import { openTransaction, sealTransaction } from './oidc-transaction.js';

/** Where the browser goes next; the sealed transaction or the session cookies go with it. */
export type OidcStart = { location: string; sealedTransaction: string | null };
export type OidcCompletion = { location: string; tokens: IssuedTokens | null };

/**
 * The two halves of a provider sign-in. Every outcome is a redirect: to the provider, to the saved
 * target once signed in, or back to /login?oidc_error=<code> (keeping the target for the next try).
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger(OidcService.name);

  constructor(
    private readonly client: OidcClientService,
    private readonly accounts: OidcAccountsService,
    private readonly secrets: SecretsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Only same-site paths are honoured as the target after signing in. */
  async begin(requestedRedirect: string | undefined): Promise<OidcStart> {
    const redirect = safeRedirectPath(requestedRedirect) ?? HOME_AFTER_SIGN_IN;
    try {
      const { authorizationUrl, transaction } = await this.client.begin(redirect);
      return { location: authorizationUrl.href, sealedTransaction: sealTransaction(transaction, this.secrets.authSecret) };
    } catch (error) {
      return { location: this.failureLocation(error, redirect), sealedTransaction: null };
    }
  }

  /** `callbackPath` is the request's path and query; `sealedTransaction` the cookie `begin` set. */
  async complete(callbackPath: string, sealedTransaction: string | undefined, userAgent?: string): Promise<OidcCompletion> {
    const transaction = openTransaction(sealedTransaction, this.secrets.authSecret);
    if (!transaction) {
      return { location: this.failureLocation(new OidcException('failed', 'No sign-in in progress in this browser'), null), tokens: null };
    }
    try {
      // The public origin, not the Host header: it must equal the redirect_uri sent to the provider.
      const identity = await this.client.complete(new URL(callbackPath, this.config.publicUrl), transaction);
      return { location: transaction.redirect, tokens: await this.accounts.signIn(identity, userAgent) };
    } catch (error) {
      return { location: this.failureLocation(error, transaction.redirect), tokens: null };
    }
  }

  /** Back to the sign-in screen with a reason, keeping the target for the next attempt. */
  private failureLocation(error: unknown, redirect: string | null): string {
    let code: OidcErrorCode = 'failed';
    if (error instanceof OidcException) code = error.code;
    else this.logger.error(`OpenID Connect sign-in failed: ${(error as Error)?.stack ?? String(error)}`);
    const params = new URLSearchParams({ oidc_error: code });
    if (redirect && redirect !== HOME_AFTER_SIGN_IN) params.set('redirect', redirect);
    return `${LOGIN_PATH}?${params.toString()}`;
  }
}
