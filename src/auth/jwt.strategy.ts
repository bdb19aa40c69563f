import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { SessionUser } from '../../lib/api/auth.js';
import { rememberVerifiedSession } from './decorators/current-session.decorator.js';
import { SecretsService } from './secrets.service.js';
import { SESSION_COOKIE, SessionsService, type SessionTokenPayload } from './sessions.service.js';

const fromSessionCookie = (request: Request): string | null =>
  (request.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE] ?? null;

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    private readonly sessions: SessionsService,
    secrets: SecretsService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([fromSessionCookie]),
      // The algorithm is pinned: a token claiming `alg: none` or RS256 is refused before its claims are read.
      algorithms: sessions.verifyOptions.algorithms,
      issuer: sessions.verifyOptions.issuer,
      audience: sessions.verifyOptions.audience,
      ignoreExpiration: false,
      passReqToCallback: true,
      secretOrKeyProvider: (_request: unknown, _token: unknown, done: (error: null, secret: string) => void) =>
        done(null, secrets.authSecret),
    });
  }

  /**
   * Returning null makes passport answer 401; a thrown database error becomes a 503. The verified
   * session is kept beside the user for `@CurrentSession()` (its id and sign-in time, never a token).
   */
  async validate(request: Request, payload: SessionTokenPayload): Promise<SessionUser | null> {
    const resolved = await this.sessions.resolvePayload(payload);
    if (!resolved) return null;
    rememberVerifiedSession(request, resolved.session);
    return resolved.user;
  }
}
