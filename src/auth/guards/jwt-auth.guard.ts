import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../../lib/api/auth.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { clearSessionCookie, readCookie } from '../auth-cookies.js';
import { rememberVerifiedSession } from '../decorators/current-session.decorator.js';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator.js';
import { SESSION_COOKIE, SessionsService } from '../sessions.service.js';

/**
 * The global guard: every handler requires a valid session unless it is marked @Public().
 * Deny by default, so a new endpoint that forgets its decorator is closed, not open.
 *
 * The token is verified by SessionsService, the one verification the page render, isSignedIn and
 * sign-out use too. A database failure while the session is loaded is thrown as it is: the filter
 * answers 503, not 401, so a database outage never looks like everybody being signed out.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<Request & { user?: SessionUser }>();
    const { invalidToken, resolved } = await this.sessions.authenticate(readCookie(request, SESSION_COOKIE));
    // A token that does not verify never will: the browser is told to drop it (the refresh cookie,
    // if any, is what gets a new one), rather than sending it with every request until it expires.
    if (invalidToken) clearSessionCookie(http.getResponse<Response>(), this.config);
    if (!resolved) throw new UnauthorizedException('Sign in to continue');
    request.user = resolved.user;
    rememberVerifiedSession(request, resolved.session);
    return true;
  }
}
