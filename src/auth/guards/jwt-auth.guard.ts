import { type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { clearSessionCookie, readCookie } from '../auth-cookies.js';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator.js';
import { TokenWithoutExpiryError } from '../jwt.strategy.js';
import { SESSION_COOKIE } from '../sessions.service.js';

/**
 * The global guard: every handler requires a valid session unless it is marked @Public().
 * Deny by default, so a new endpoint that forgets its decorator is closed, not open.
 *
 * A database failure while the session is loaded is thrown as it is: the filter answers 503, not
 * 401, so a database outage never looks like everybody being signed out.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    return super.canActivate(context);
  }

  /**
   * `info` is passport-jwt's reason when the token did not verify (bad signature, algorithm,
   * issuer, audience, expired, malformed). A presented token that does not verify never will: the
   * browser is told to drop it (the refresh cookie, if any, is what gets a new one), rather than
   * sending it with every request until it expires. A token that verifies but names a dead session
   * is refused and kept.
   */
  override handleRequest<TUser>(error: unknown, user: TUser | false, info: unknown, context: ExecutionContext): TUser {
    const http = context.switchToHttp();
    const presented = readCookie(http.getRequest<Request>(), SESSION_COOKIE) !== undefined;
    const invalidToken = error instanceof TokenWithoutExpiryError || (!error && !user && presented && info instanceof Error);
    if (invalidToken) clearSessionCookie(http.getResponse<Response>(), this.config);
    else if (error) throw error; // e.g. the database is down: let the filter answer 503, not 401
    if (!user) throw new UnauthorizedException('Sign in to continue');
    return user;
  }
}
