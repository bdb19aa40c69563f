import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config.js';
import { baseCookieOptions, readCookie } from './auth-cookies.js';

/**
 * The browser that registered keeps a signed note of its registration: the address, the nonce
 * stored on the unconfirmed account, and where to land. Following the confirmation link in that
 * browser signs in at once; anywhere else the link only confirms the address and the person signs
 * in with their password. A link can therefore never sign anybody into an account whose password
 * someone else chose (an address registered by a stranger before its owner).
 */
export const SIGNUP_COOKIE = 'hs_signup';
const LIFETIME_MS = 48 * 3600 * 1000; // as long as the confirmation link works

export interface SignupNote {
  email: string;
  nonce: string;
  redirect: string | null;
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`signup:${payload}`).digest('base64url');
}

export function setSignupCookie(response: Response, config: AppConfig, secret: string, note: SignupNote): void {
  const payload = Buffer.from(JSON.stringify({ e: note.email, n: note.nonce, r: note.redirect })).toString('base64url');
  response.cookie(SIGNUP_COOKIE, `${payload}.${sign(secret, payload)}`, { ...baseCookieOptions(config), maxAge: LIFETIME_MS });
}

export function readSignupCookie(request: Request, secret: string): SignupNote | null {
  const value = readCookie(request, SIGNUP_COOKIE);
  const [payload, signature] = value?.split('.') ?? [];
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(secret, payload));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  try {
    const { e, n, r } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { e?: unknown; n?: unknown; r?: unknown };
    if (typeof e !== 'string' || typeof n !== 'string') return null;
    return { email: e, nonce: n, redirect: typeof r === 'string' ? r : null };
  } catch {
    return null;
  }
}

export function clearSignupCookie(response: Response, config: AppConfig): void {
  response.clearCookie(SIGNUP_COOKIE, baseCookieOptions(config));
}
