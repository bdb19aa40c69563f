import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthProviders } from '../../../lib/api/auth.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { RateLimit } from '../../rate-limit/rate-limit.decorator.js';
import { applyAccountColorMode, readCookie, rotateCsrfCookie, setAuthCookies } from '../auth-cookies.js';
import { Public } from '../decorators/public.decorator.js';
import { authProvidersOf } from './auth-providers.js';
import { OidcStartQueryDto } from './dto/oidc-start-query.dto.js';
import { clearOidcTransactionCookie, setOidcTransactionCookie } from './oidc-cookies.js';
import { OidcService } from './oidc.service.js';
import { OIDC_TRANSACTION_COOKIE } from './oidc-transaction.js';

const FIFTEEN_MINUTES = 15 * 60;

/**
 * "Continue with {provider}". Both endpoints are browser navigations (plain GETs, so the CSRF guard
 * lets them through): `state`, bound to this browser by the transaction cookie, is what protects
 * the callback from a forged response. Every outcome is a redirect (see OidcService).
 */
@Controller('api/auth')
export class OidcController {
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
    response.setHeader('Cache-Control', 'no-store');
    const { location, sealedTransaction } = await this.oidc.begin(query.redirect);
    if (sealedTransaction) setOidcTransactionCookie(response, this.config, sealedTransaction);
    response.redirect(302, location);
  }

  @Public()
  @RateLimit('oidc-callback', { scope: 'ip', limit: 30, windowSeconds: FIFTEEN_MINUTES })
  @Get('oidc/callback')
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // Single use, whatever happens next: a replayed callback finds no transaction.
    clearOidcTransactionCookie(response, this.config);
    const { location, tokens } = await this.oidc.complete(
      request.originalUrl,
      readCookie(request, OIDC_TRANSACTION_COOKIE),
      request.header('user-agent'),
    );
    if (tokens) {
      setAuthCookies(response, this.config, tokens);
      applyAccountColorMode(response, this.config, tokens.user);
      rotateCsrfCookie(response, this.config);
    }
    response.redirect(302, location);
  }
}
