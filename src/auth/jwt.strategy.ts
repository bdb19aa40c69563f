import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Passport } from 'passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { SessionUser } from '../../lib/api/auth.js';
import { readCookie } from './auth-cookies.js';
import { rememberVerifiedSession } from './decorators/current-session.decorator.js';
import { hasExpiry, SESSION_COOKIE, SessionsService, type SessionTokenPayload } from './sessions.service.js';

/** A session token that verifies but has no `exp`: refused like a forged one (see `hasExpiry`). */
export class TokenWithoutExpiryError extends Error {
  override readonly name = 'TokenWithoutExpiryError';
}

/**
 * Reads the session cookie and verifies it with the rules SessionsService verifies page sessions
 * with (algorithm pinned, issuer, audience, expiry required), then loads the live session.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(private readonly sessions: SessionsService) {
    const { algorithms, issuer, audience } = sessions.tokenRules;
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([(request: Request) => readCookie(request, SESSION_COOKIE) ?? null]),
      // The algorithm is pinned: a token claiming `alg: none` or RS256 is refused before its claims are read.
      algorithms,
      issuer,
      audience,
      ignoreExpiration: false,
      passReqToCallback: true,
      // Read per request: the secret may come from the database after the strategy is built.
      secretOrKeyProvider: (_request: unknown, _token: unknown, done: (error: null, secret: string) => void) =>
        done(null, sessions.signingKey),
    });
  }

  /** Registered in a passport instance of its own: the guard runs this instance, never one looked up by name (see JwtAuthGuard). */
  getPassportInstance() {
    return new Passport();
  }

  /**
   * Returning null makes the guard answer 401; a thrown database error becomes a 503. The verified
   * session is kept beside the user for `@CurrentSession()` (its id and sign-in time, never a token).
   */
  async validate(request: Request, payload: SessionTokenPayload): Promise<SessionUser | null> {
    if (!hasExpiry(payload)) throw new TokenWithoutExpiryError('session token without exp');
    const resolved = await this.sessions.resolvePayload(payload);
    if (!resolved) return null;
    rememberVerifiedSession(request, resolved.session);
    return resolved.user;
  }
}
