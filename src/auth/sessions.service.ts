import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectModel } from '@nestjs/mongoose';
import { type Model, Types } from 'mongoose';
import type { SessionUser } from '../../lib/auth/session-user.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { toSessionUser, UsersService } from '../users/users.service.js';
import { Session } from './schemas/session.schema.js';
import { SecretsService } from './secrets.service.js';

export const SESSION_COOKIE = 'hs_session';
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const JWT_ALGORITHM = 'HS256' as const;
export const JWT_AUDIENCE = 'hitscope-web';

export interface SessionTokenPayload {
  sub: string;
  sid: string;
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SessionsService.name);
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @InjectModel(Session.name) private readonly sessions: Model<Session>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jwt: JwtService,
    private readonly secrets: SecretsService,
    private readonly users: UsersService,
  ) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      this.sweepExpired().catch((error: Error) => this.logger.warn(`Session sweep failed: ${error.message}`));
    }, SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Options shared by signing, the passport strategy and server-side rendering. */
  get verifyOptions() {
    return {
      algorithms: [JWT_ALGORITHM],
      issuer: this.config.publicUrl,
      audience: JWT_AUDIENCE,
    };
  }

  async create(userId: string, userAgent = ''): Promise<{ token: string; expiresAt: Date }> {
    const sid = randomBytes(24).toString('base64url');
    const now = Date.now();
    const expiresAt = new Date(now + SESSION_TTL_MS);
    await this.sessions.create({
      _id: sid,
      userId: new Types.ObjectId(userId),
      createdAt: new Date(now),
      expiresAt,
      userAgent: userAgent.slice(0, 300),
    });
    const token = await this.jwt.signAsync({ sub: userId, sid } satisfies SessionTokenPayload, {
      secret: this.secrets.authSecret,
      algorithm: JWT_ALGORITHM,
      issuer: this.config.publicUrl,
      audience: JWT_AUDIENCE,
      expiresIn: Math.floor(SESSION_TTL_MS / 1000),
    });
    return { token, expiresAt };
  }

  /**
   * Turns a verified token payload into the current user: the session must exist, be neither
   * revoked nor expired, and the user must still be active. The role comes from the database, so a
   * role change or a disabled account takes effect on the next request.
   */
  async resolvePayload(payload: Partial<SessionTokenPayload>): Promise<SessionUser | null> {
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
    if (!Types.ObjectId.isValid(payload.sub)) return null;
    const session = await this.sessions.findById(payload.sid).lean().exec();
    if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
    if (session.userId.toString() !== payload.sub) return null;
    const user = await this.users.findById(payload.sub);
    if (!user || user.status !== 'active') return null;
    return toSessionUser(user);
  }

  /** The same verification as the API's passport strategy, for the server-side render. */
  async resolveToken(token: string | undefined): Promise<SessionUser | null> {
    if (!token) return null;
    let payload: SessionTokenPayload;
    try {
      payload = await this.jwt.verifyAsync<SessionTokenPayload>(token, {
        ...this.verifyOptions,
        secret: this.secrets.authSecret,
      });
    } catch {
      return null;
    }
    return this.resolvePayload(payload);
  }

  async revokeToken(token: string | undefined): Promise<void> {
    if (!token) return;
    const payload = this.jwt.decode<Partial<SessionTokenPayload> | null>(token);
    if (!payload?.sid) return;
    try {
      await this.jwt.verifyAsync(token, { ...this.verifyOptions, secret: this.secrets.authSecret, ignoreExpiration: true });
    } catch {
      return; // a forged token cannot revoke somebody else's session
    }
    await this.sessions.updateOne({ _id: payload.sid, revokedAt: null }, { $set: { revokedAt: new Date() } }).exec();
  }

  /** Periodic clean-up of expired sessions (stands in for a TTL index). */
  async sweepExpired(now = new Date()): Promise<number> {
    const result = await this.sessions.deleteMany({ expiresAt: { $lt: now } }).exec();
    return result.deletedCount;
  }
}
