import type { CookieOptions, Response } from 'express';
import type { AppConfig } from '../../config/app-config.js';
import { baseCookieOptions } from '../auth-cookies.js';
import { OIDC_TRANSACTION_COOKIE, OIDC_TRANSACTION_TTL_MS } from './oidc-transaction.js';

/**
 * Sent only to the OIDC endpoints. SameSite=Lax still sends it on the provider's redirect back,
 * which is a top-level GET navigation.
 */
function transactionCookieOptions(config: AppConfig): CookieOptions {
  return { ...baseCookieOptions(config), path: '/api/auth/oidc' };
}

export function setOidcTransactionCookie(response: Response, config: AppConfig, sealed: string): void {
  response.cookie(OIDC_TRANSACTION_COOKIE, sealed, { ...transactionCookieOptions(config), maxAge: OIDC_TRANSACTION_TTL_MS });
}

export function clearOidcTransactionCookie(response: Response, config: AppConfig): void {
  response.clearCookie(OIDC_TRANSACTION_COOKIE, transactionCookieOptions(config));
}
