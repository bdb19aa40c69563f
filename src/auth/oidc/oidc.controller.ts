import { Controller, Get, Inject, Logger, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthProviders, OidcErrorCode } from '../../../lib/api/auth.js';
import { safeRedirectPath } from '../../../lib/http/safe-redirect.js';
import { HOME_AFTER_SIGN_IN, LOGIN_PATH } from '../../../lib/routes/route-middleware.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { RateLimit } from '../../rate-limit/rate-limit.decorator.js';
import { readCookie, setAuthCookies } from '../auth-cookies.js';
import { Public } from '../decorators/public.decorator.js';
import { authProvidersOf } from './auth-providers.js';
import { OidcStartQueryDto } from './dto/oidc-start-query.dto.js';
import { clearOidcTransactionCookie, setOidcTransactionCookie } from './oidc-cookies.js';
import { OidcException } from './oidc.exception.js';
import { OidcService } from './oidc.service.js';
import { OIDC_TRANSACTION_COOKIE } from './oidc-transaction.js';

const FIFTEEN_MINUTES = 15 * 60;

/**
 * "Continue with {provider}". Both endpoints are browser navigations (plain GETs, so the CSRF guard
 * lets them through): `state`, bound to this browser by the transaction cookie, is what protects
 * the callback from a forged response. Every outcome is a redirect: to the saved target when
 * signed in, otherwise to /login?oidc_error=<code>.
 */
@Controller('api/auth')
export class OidcController {
  private readonly logger = new Logger(OidcController.name);

  constructor(
    private readonly oidc: OidcService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Which sign-in buttons the login and register screens show. */
  @Public()
  @Get('providers')
  providers(@Res({ passthrough: true }) response: Response): AuthProviders {
    response.setHeader('Cache-Control', 'public, max-age=300');
    return authProvidersOf(this.config);
  }

  @Public()
  @RateLimit('oidc-start', { scope: 'ip', limit: 30, windowSeconds: FIFTEEN_MINUTES })
  @Get('oidc/start')
  async start(@Query() query: OidcStartQueryDto, @Res() response: Response): Promise<void> {
    const redirect = safeRedirectPath(query.redirect) ?? HOME_AFTER_SIGN_IN;
    response.setHeader('Cache-Control', 'no-store');
    try {
      const { authorizationUrl, sealedTransaction } = await this.oidc.begin(redirect);
      setOidcTransactionCookie(response, this.config, sealedTransaction);
      response.redirect(302, authorizationUrl.href);
    } catch (error) {
      response.redirect(302, this.failureLocation(error, redirect));
    }
  }

  @Public()
  @RateLimit('oidc-callback', { scope: 'ip', limit: 30, windowSeconds: FIFTEEN_MINUTES })
  @Get('oidc/callback')
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // Single use, whatever happens next: a replayed callback finds no transaction.
    clearOidcTransactionCookie(response, this.config);
    const transaction = this.oidc.openTransaction(readCookie(request, OIDC_TRANSACTION_COOKIE));
    if (!transaction) {
      response.redirect(302, this.failureLocation(new OidcException('failed', 'No sign-in in progress in this browser'), null));
      return;
    }
    try {
      // The public origin, not the Host header: it must equal the redirect_uri sent to the provider.
      const callbackUrl = new URL(request.originalUrl, this.config.publicUrl);
      const tokens = await this.oidc.complete(callbackUrl, transaction, request.header('user-agent'));
      setAuthCookies(response, this.config, tokens);
      response.redirect(302, transaction.redirect);
    } catch (error) {
      response.redirect(302, this.failureLocation(error, transaction.redirect));
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
