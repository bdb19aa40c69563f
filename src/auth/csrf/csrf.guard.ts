import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthErrorCode, AuthException } from '../auth.exception.js';
import { SKIP_CSRF_KEY } from '../decorators/skip-csrf.decorator.js';
import { CSRF_COOKIE, CSRF_HEADER, CsrfService } from './csrf.service.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every unsafe request needs a valid CSRF token, sign-in and registration included. */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly csrf: CsrfService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(request.method)) return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_CSRF_KEY, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const cookie = (request.cookies as Record<string, string> | undefined)?.[CSRF_COOKIE];
    const header = request.header(CSRF_HEADER);
    if (!this.csrf.isValid(cookie, header)) {
      throw new AuthException(
        AuthErrorCode.CsrfInvalid,
        'Missing or invalid CSRF token: fetch one from GET /api/auth/csrf and send it as the x-csrf-token header',
      );
    }
    return true;
  }
}
