import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { AuthErrorCode, AuthException } from '../auth.exception.js';
import { SKIP_CSRF_KEY } from '../decorators/skip-csrf.decorator.js';
import { CSRF_COOKIE, CSRF_HEADER, CsrfService } from './csrf.service.js';
import { crossSiteWrite } from './request-origin.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every unsafe request needs a valid CSRF token, sign-in and registration included. Before the
 * token, what the browser says about where the request comes from is checked (`Origin`,
 * `Sec-Fetch-Site`): a second line of defence, should a token ever leak or SameSite be bypassed.
 * Handlers marked @SkipCsrf() (writes that are not cookie-authenticated) skip both.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly logger = new Logger(CsrfGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly csrf: CsrfService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(request.method)) return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_CSRF_KEY, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const crossSite = crossSiteWrite(request.headers, this.config.publicUrl, !this.config.publicUrlSet);
    if (crossSite) {
      // Also what a PUBLIC_URL that differs from the address in the browser looks like: say so in the log.
      this.logger.warn(
        `Refused a ${request.method} from another site (${JSON.stringify(crossSite.slice(0, 200))}; PUBLIC_URL is ${this.config.publicUrl}` +
          `${this.config.publicUrlSet ? '' : ', the default: set PUBLIC_URL to the address people open'})`,
      );
      throw new AuthException(AuthErrorCode.CrossSiteRequest, 'This request came from another site and was refused');
    }
    const cookie = (request.cookies as Record<string, string> | undefined)?.[CSRF_COOKIE];
    const header = request.header(CSRF_HEADER);
    if (!this.csrf.isValid(cookie, header)) {
      throw new AuthException(
        AuthErrorCode.CsrfInvalid,
        'Missing or invalid CSRF token: fetch one from GET /api/auth/csrf and send it as the x-csrf-token header',
      );
    }
    return true;
  }
}
