import type { CookieOptions, Response } from 'express';
import type { AppConfig } from '../config/app-config.js';
import { CSRF_COOKIE } from './csrf/csrf.service.js';
import { SESSION_COOKIE } from './sessions.service.js';

export function baseCookieOptions(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/' };
}

export function setSessionCookie(response: Response, config: AppConfig, token: string, expires: Date): void {
  response.cookie(SESSION_COOKIE, token, { ...baseCookieOptions(config), expires });
}

export function clearSessionCookie(response: Response, config: AppConfig): void {
  response.clearCookie(SESSION_COOKIE, baseCookieOptions(config));
}

export function setCsrfCookie(response: Response, config: AppConfig, nonce: string): void {
  // A session cookie (no expiry): the page asks for a fresh token whenever it loads.
  response.cookie(CSRF_COOKIE, nonce, baseCookieOptions(config));
}
