import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RATE_LIMIT_KEY, type RateLimitPolicy } from './rate-limit.decorator.js';
import { RateLimitService } from './rate-limit.service.js';

/** The account a request is about: the e-mail in its body, normalised. */
function accountOf(request: Request): string | null {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.length <= 254 ? email.trim().toLowerCase() : null;
}

/** The signed-in user the JWT guard attached, if any. */
function userOf(request: Request): string | null {
  const user = (request as Request & { user?: { id?: unknown } }).user;
  return typeof user?.id === 'string' ? `user:${user.id}` : null;
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.get<RateLimitPolicy | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (policy) await this.count(policy, context.switchToHttp().getRequest<Request>());
    return true;
  }

  /** Counts `request` against each rule of `policy`; over a limit it throws 429 (also called by the fast lane). */
  async count(policy: RateLimitPolicy, request: Request): Promise<void> {
    for (const rule of policy.rules) {
      // request.ip honours X-Forwarded-For only as far as the TRUST_PROXY setting allows.
      const subject = rule.scope === 'ip' ? (request.ip ?? 'unknown') : rule.scope === 'user' ? userOf(request) : accountOf(request);
      if (!subject) continue;
      if (rule.buffered) await this.limits.hitBuffered(policy.bucket, rule, subject);
      else await this.limits.hit(policy.bucket, rule, subject);
    }
  }
}
