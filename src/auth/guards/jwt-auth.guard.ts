import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import passport from 'passport';
import type { SessionUser } from '../../../lib/api/auth.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { clearSessionCookie, readCookie } from '../auth-cookies.js';
import { READS_SESSION_KEY } from '../decorators/optional-session.decorator.js';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator.js';
import { JwtStrategy, TokenWithoutExpiryError } from '../jwt.strategy.js';
import { SESSION_COOKIE } from '../sessions.service.js';

interface Outcome {
  error: unknown;
  user: SessionUser | false;
  info: unknown;
}

/**
 * The global guard: every handler requires a valid session unless it is marked @Public().
 * Deny by default, so a new endpoint that forgets its decorator is closed, not open.
 *
 * It runs this app's own passport-jwt strategy instance. (`AuthGuard('jwt')` looks the strategy up
 * by name in passport's process-wide registry, where the last app created in a process replaces
 * the others': a test that starts a second app would have the first one verify sessions with the
 * second's database connection, closed once the second app is.)
 *
 * A database failure while the session is loaded is thrown as it is: the filter answers 503, not
 * 401, so a database outage never looks like everybody being signed out.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: JwtStrategy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets);
    const readsSession = this.reflector.getAllAndOverride<boolean>(READS_SESSION_KEY, targets);
    if (isPublic && !readsSession) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<Request & { user?: SessionUser }>();
    const response = http.getResponse<Response>();
    const user = await this.authenticate(request, response);
    // @OptionalSession(): an anonymous caller goes on without a user; the handler decides.
    if (!user && !isPublic) throw new UnauthorizedException('Sign in to continue');
    if (user) request.user = user;
    return true;
  }

  private async authenticate(request: Request, response: Response): Promise<SessionUser | false> {
    const { error, user, info } = await new Promise<Outcome>((resolve) => {
      // A fresh object over the strategy per request, as passport makes for a strategy named in its
      // registry: passport sets the request's success/fail/error callbacks on the object it is
      // given, so sharing the instance would let concurrent requests answer each other's callbacks.
      const perRequest = Object.create(this.strategy) as JwtStrategy;
      passport.authenticate(perRequest, { session: false }, (error: unknown, user: SessionUser | false, info: unknown) =>
        resolve({ error, user, info }),
      )(request, response, (error: unknown) => resolve({ error, user: false, info: undefined }));
    });
    // `info` is passport-jwt's reason when the token did not verify (bad signature, algorithm,
    // issuer, audience, expired, malformed). A presented token that does not verify never will: the
    // browser is told to drop it (the refresh cookie, if any, is what gets a new one) rather than
    // sending it with every request until it expires. A token that verifies but names a dead
    // session is refused and kept.
    const presented = readCookie(request, SESSION_COOKIE) !== undefined;
    const invalidToken = error instanceof TokenWithoutExpiryError || (!error && !user && presented && info instanceof Error);
    if (invalidToken) clearSessionCookie(response, this.config);
    else if (error) throw error; // e.g. the database is down: let the filter answer 503, not 401
    return user;
  }
}
