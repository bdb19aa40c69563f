import type { CookieOptions, Request, Response } from 'express';
import type { SessionUser } from '../../lib/api/auth.js';
import { COLOR_MODE_COOKIE, type ColorMode, colorModeAtSignIn } from '../../lib/client-constants.js';
import type { AppConfig } from '../config/app-config.js';
import { CSRF_COOKIE, newCsrfNonce } from './csrf/csrf.service.js';
import { type IssuedTokens, REFRESH_COOKIE, SESSION_COOKIE } from './sessions.service.js';

export function baseCookieOptions(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/' };
}

export function readCookie(request: Request, name: string): string | undefined {
  return (request.cookies as Record<string, string> | undefined)?.[name];
}

/** The access token lives 15 minutes; the refresh token as long as its session allows. */
export function setAuthCookies(response: Response, config: AppConfig, tokens: IssuedTokens): void {
  response.cookie(SESSION_COOKIE, tokens.accessToken, { ...baseCookieOptions(config), expires: tokens.refreshExpiresAt });
  if (tokens.refreshToken) {
    response.cookie(REFRESH_COOKIE, tokens.refreshToken, { ...baseCookieOptions(config), expires: tokens.refreshExpiresAt });
  }
}

/** Both cookies, with the attributes they were set with (a cookie is only replaced by one of the same name, path and domain). */
export function clearAuthCookies(response: Response, config: AppConfig): void {
  clearSessionCookie(response, config);
  response.clearCookie(REFRESH_COOKIE, baseCookieOptions(config));
}

/** The access token alone: when it fails verification, while the refresh token may still get a new one. */
export function clearSessionCookie(response: Response, config: AppConfig): void {
  response.clearCookie(SESSION_COOKIE, baseCookieOptions(config));
}

export function setCsrfCookie(response: Response, config: AppConfig, nonce: string): void {
  // A session cookie (no expiry): the page asks for a fresh token whenever it loads.
  response.cookie(CSRF_COOKIE, nonce, baseCookieOptions(config));
}

/** At sign-in and sign-out: the CSRF tokens handed out before no longer verify. */
export function rotateCsrfCookie(response: Response, config: AppConfig): void {
  setCsrfCookie(response, config, newCsrfNonce());
}

/**
 * The colour mode the server renders with. Not httpOnly: the page's switch writes it too
 * (client/app/color-mode.tsx), for visitors as well as for signed-in users.
 */
export function setColorModeCookie(response: Response, config: AppConfig, mode: ColorMode): void {
  response.cookie(COLOR_MODE_COOKIE, mode, { path: '/', sameSite: 'lax', maxAge: 365 * 24 * 3600 * 1000, secure: config.cookieSecure });
}

/**
 * At sign-in (password, e-mail link, OpenID Connect): the mode saved on the account comes to this
 * browser with the session, so the very next server render has it, with no flash.
 */
export function applyAccountColorMode(response: Response, config: AppConfig, user: SessionUser): void {
  const mode = colorModeAtSignIn(user.colorMode);
  if (mode) setColorModeCookie(response, config, mode);
}
