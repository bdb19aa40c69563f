import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { clearSessionCookie, readCookie, setAuthCookies } from './auth-cookies.js';
import { REFRESH_COOKIE, SESSION_COOKIE, SessionsService } from './sessions.service.js';

/**
 * The signed-in user of a page request. Pages are public routes (the global guard lets them
 * through), so the session is read here from the same cookies, with the same verification as the
 * API's, before the route guards of the render decide.
 */
@Injectable()
export class PageSessionService {
  constructor(
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * When the access token has expired (15 min) but the session lives on, the refresh token is
   * rotated before rendering and the new cookies go out with the page: a returning visitor sees
   * their dashboard rather than a sign-in redirect. An access token that fails verification and is
   * not replaced that way is cleared, as the API guard does.
   */
  async resolve(request: Request, response: Response): Promise<SessionUser | null> {
    const { invalidToken, resolved } = await this.sessions.authenticate(readCookie(request, SESSION_COOKIE));
    if (resolved) return resolved.user;
    const refreshToken = readCookie(request, REFRESH_COOKIE);
    const tokens = refreshToken ? await this.sessions.refresh(refreshToken) : null;
    if (tokens) {
      setAuthCookies(response, this.config, tokens);
      return tokens.user;
    }
    if (invalidToken) clearSessionCookie(response, this.config);
    return null;
  }
}
