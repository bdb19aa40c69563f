import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SESSION_COOKIE, SessionsService } from '../auth/sessions.service.js';
import { UsersService } from '../users/users.service.js';
import { parseCookieHeader } from '../common/lazy-cookies.js';

/** How often the admins' ids are read again (a new admin is recognised within this). */
const ADMINS_REFRESH_MS = 30_000;

/**
 * Tells whether a collector request comes from a signed-in admin without a database read per
 * event: the session cookie's token is verified (signature, algorithm, issuer, audience, expiry:
 * the rules of the API guard) and its subject looked up in the admins' ids, which are read every
 * 30 s. A revoked session whose token has not expired yet still counts as the admin's: the result
 * only decides whether a page view is counted.
 */
@Injectable()
export class AdminDetector implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AnalyticsAdmins');
  private readonly jwt = new JwtService();
  private adminIds = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
  ) {}

  onModuleInit(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), ADMINS_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    try {
      this.adminIds = new Set(await this.users.adminIds());
    } catch (error) {
      this.logger.warn(`Admin ids not refreshed: ${(error as Error).message}`);
    }
  }

  /** `cookieHeader` is the raw `Cookie` header (the collector parses no cookies otherwise). */
  isAdminRequest(cookieHeader: string | undefined): boolean {
    if (!cookieHeader || !this.adminIds.size) return false;
    const token = parseCookieHeader(cookieHeader)[SESSION_COOKIE];
    if (!token) return false;
    // Most signed-in visitors are not admins: their token's subject, read without checking the
    // signature, already says so, and a forged subject can only make a page view count. Only a
    // token that names an admin pays for the signature check.
    const claimed = this.jwt.decode<{ sub?: unknown } | null>(token);
    if (typeof claimed?.sub !== 'string' || !this.adminIds.has(claimed.sub)) return false;
    try {
      const { algorithms, issuer, audience } = this.sessions.tokenRules;
      const payload = this.jwt.verify<{ sub?: unknown }>(token, { secret: this.sessions.signingKey, algorithms, issuer, audience });
      return typeof payload.sub === 'string' && this.adminIds.has(payload.sub);
    } catch {
      return false;
    }
  }
}
