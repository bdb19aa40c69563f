import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config.js';
import { baseCookieOptions, readCookie } from './auth-cookies.js';

/**
 * OWASP's "device cookie": a browser that has signed in to an account with its password before
 * carries a signed note saying so. Sign-in attempts from such a browser are judged on their own
 * (a tight limit per account and device) and are not held back by the limit that protects the
 * account from everybody else, so that strangers guessing passwords cannot lock the owner out.
 *
 * The cookie lists, for up to ten accounts, a key derived from the account id (never the id or
 * the address itself) and when it was issued, signed with the application secret.
 */
export const DEVICE_COOKIE = 'hs_device';
const LIFETIME_SECONDS = 365 * 24 * 3600;
const MAX_ACCOUNTS = 10;

export interface KnownDevice {
  /** The per-account keys this browser holds, valid and unexpired. */
  accountKeys: string[];
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(`device:${payload}`).digest('base64url');

/** The key of an account in a device cookie. */
export const deviceAccountKey = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`device-account:${userId}`).digest('base64url').slice(0, 22);

export function readDeviceCookie(request: Request, secret: string, now = Date.now()): KnownDevice {
  const value = readCookie(request, DEVICE_COOKIE);
  const [payload, signature] = value?.split('.') ?? [];
  if (!payload || !signature) return { accountKeys: [] };
  const expected = Buffer.from(sign(secret, payload));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { accountKeys: [] };
  const nowSeconds = Math.floor(now / 1000);
  const accountKeys = Buffer.from(payload, 'base64url')
    .toString('utf8')
    .split(',')
    .map((entry) => entry.split(':'))
    .filter(([key, issuedAt]) => key && Number(issuedAt) > nowSeconds - LIFETIME_SECONDS)
    .map(([key]) => key);
  return { accountKeys };
}

/** After a password sign-in: this browser is known to the account from now on (newest first). */
export function rememberDevice(
  response: Response,
  config: AppConfig,
  secret: string,
  known: KnownDevice,
  accountKey: string,
  now = Date.now(),
): void {
  const issuedAt = Math.floor(now / 1000);
  const entries = [accountKey, ...known.accountKeys.filter((key) => key !== accountKey)]
    .slice(0, MAX_ACCOUNTS)
    .map((key) => `${key}:${issuedAt}`);
  const payload = Buffer.from(entries.join(','), 'utf8').toString('base64url');
  response.cookie(DEVICE_COOKIE, `${payload}.${sign(secret, payload)}`, { ...baseCookieOptions(config), maxAge: LIFETIME_SECONDS * 1000 });
}
