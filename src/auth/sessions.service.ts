import { createHash, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectModel } from '@nestjs/mongoose';
import type { Collection } from 'mongodb';
import { type Model, Types } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import { ReadCache } from '../common/read-cache.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { toSessionUser, UsersService } from '../users/users.service.js';
import type { CurrentSessionInfo } from './decorators/current-session.decorator.js';
import { Session } from './schemas/session.schema.js';
import { SecretsService } from './secrets.service.js';
import { DatabaseAvailability } from '../database/database-availability.js';

export const SESSION_COOKIE = 'hs_session';
export const REFRESH_COOKIE = 'hs_refresh';
export const ACCESS_TTL_MS = 15 * 60 * 1000;
export const REFRESH_IDLE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Two tabs refreshing with the same token at once is not an attack. */
export const REFRESH_REUSE_GRACE_MS = 30 * 1000;
export const JWT_ALGORITHM = 'HS256' as const;
export const JWT_AUDIENCE = 'hitscope-web';
/**
 * How long an instance answers from a session it read: a revocation made through this instance
 * forgets it at once, one made through another instance (or written by a script) is seen within this.
 */
export const SESSION_CACHE_MS = 1_000;

/**
 * Every token this app signs has an `exp`; jsonwebtoken takes a token without one for one that never
 * expires, so such a token was never issued here and must not become a session that outlives every sign-out.
 */
export function hasExpiry(payload: object): boolean {
  return typeof (payload as { exp?: unknown }).exp === 'number';
}

/**
 * @nestjs/jwt's and passport-jwt's option types say the secret is a string or a Buffer, but both
 * hand it to jsonwebtoken as it is, which takes a KeyObject and then skips deriving a key per call.
 */
export function jwtKey(key: KeyObject): string {
  return key as unknown as string;
}

export interface SessionTokenPayload {
  sub: string;
  sid: string;
}

/** A verified session: the user as the API and the pages see them, and the session behind them. */
export interface ResolvedSession {
  user: SessionUser;
  session: CurrentSessionInfo;
}

/** What a request's access token turned out to be. */
export interface Authentication {
  /** A token was presented and does not verify (signature, algorithm, issuer, audience, expiry, no `exp`, malformed). */
  invalidToken: boolean;
  /** The user and session when the token verifies and its session is live; null otherwise. */
  resolved: ResolvedSession | null;
}

export interface IssuedTokens {
  user: SessionUser;
  accessToken: string;
  accessExpiresAt: Date;
  /** Null when a grace-period refresh re-issued only the access token. */
  refreshToken: string | null;
  refreshExpiresAt: Date;
}

/** What a request needs of its session document. */
interface SessionRecord {
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** `hs_refresh` is `<session id>.<secret>`; only the secret's hash is stored. */
function parseRefreshToken(token: string | undefined): { sid: string; secret: string } | null {
  const match = token ? /^([\w-]{32})\.([\w-]{43})$/.exec(token) : null;
  return match ? { sid: match[1], secret: match[2] } : null;
}

@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SessionsService.name);
  private sweeper: NodeJS.Timeout | null = null;
  /** Sessions read in the last SESSION_CACHE_MS, by id; every revocation here forgets what it revoked. */
  private readonly recent = new ReadCache<SessionRecord>(SESSION_CACHE_MS, 10_000);

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

  /** What a session token must match besides its signature, shared with the passport strategy of the API guard. */
  get tokenRules() {
    return { algorithms: [JWT_ALGORITHM], issuer: this.config.publicUrl, audience: JWT_AUDIENCE };
  }

  /**
   * The key session tokens are signed with (known once the module has started), as the key object
   * made once, typed for the option fields it goes into (see `jwtKey`).
   */
  get signingKey(): string {
    return jwtKey(this.secrets.signingKey);
  }

  private get verifyOptions() {
    return { ...this.tokenRules, secret: this.signingKey };
  }

  /**
   * The verification of a session token for the page render, isSignedIn and sign-out (the API guard's
   * passport strategy applies the same `verifyOptions` and `hasExpiry`). The algorithm is pinned (a token claiming `alg: none` or RS256 is refused before its
   * claims are read), and so are the issuer and audience. A token without `exp` is refused too (`hasExpiry`).
   */
  private async verifyAccessToken(token: string, ignoreExpiration = false): Promise<SessionTokenPayload | null> {
    try {
      const payload = await this.jwt.verifyAsync<SessionTokenPayload & { exp?: unknown }>(token, {
        ...this.verifyOptions,
        ignoreExpiration,
      });
      return hasExpiry(payload) ? payload : null;
    } catch {
      return null;
    }
  }

  /** Verifies a request's access token and resolves its session; a database failure is thrown (503), never a "no". */
  async authenticate(token: string | undefined): Promise<Authentication> {
    if (!token) return { invalidToken: false, resolved: null };
    const payload = await this.verifyAccessToken(token);
    if (!payload) return { invalidToken: true, resolved: null };
    return { invalidToken: false, resolved: await this.resolvePayload(payload) };
  }

  async create(user: SessionUser, userAgent = ''): Promise<IssuedTokens> {
    const sid = randomBytes(24).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const now = Date.now();
    const refreshExpiresAt = new Date(Math.min(now + REFRESH_IDLE_TTL_MS, now + SESSION_ABSOLUTE_TTL_MS));
    await this.sessions.create({
      _id: sid,
      userId: new Types.ObjectId(user.id),
      createdAt: new Date(now),
      expiresAt: new Date(now + SESSION_ABSOLUTE_TTL_MS),
      refreshExpiresAt,
      refreshHash: sha256(secret),
      userAgent: userAgent.slice(0, 300),
    });
    return { user, ...(await this.signAccess(user.id, sid, now)), refreshToken: `${sid}.${secret}`, refreshExpiresAt };
  }

  private async signAccess(userId: string, sid: string, now = Date.now()) {
    const accessToken = await this.jwt.signAsync({ sub: userId, sid } satisfies SessionTokenPayload, {
      secret: this.signingKey,
      algorithm: JWT_ALGORITHM,
      issuer: this.config.publicUrl,
      audience: JWT_AUDIENCE,
      expiresIn: Math.floor(ACCESS_TTL_MS / 1000),
    });
    return { accessToken, accessExpiresAt: new Date(now + ACCESS_TTL_MS) };
  }

  /**
   * Turns a verified access-token payload into the current user: the session must be live and the
   * user active. At most one database read per request, and none for a session this instance read in
   * the last SESSION_CACHE_MS (1 s): a signed-in page and the API calls it makes share one read. A
   * revocation through this instance (sign-out, password change, a disabled account, refresh-token
   * reuse) forgets the session, so its next request here is refused; one made elsewhere is seen
   * within SESSION_CACHE_MS. The user comes from UsersService's few-second memory, which forgets a
   * user the moment this instance changes them: a role change or a disabled account takes effect on
   * the next request here and within SESSION_USER_CACHE_MS on other instances.
   */
  async resolvePayload(payload: Partial<SessionTokenPayload>): Promise<ResolvedSession | null> {
    const { sid, sub } = payload;
    if (typeof sid !== 'string' || typeof sub !== 'string') return null;
    if (!Types.ObjectId.isValid(sub)) return null;
    const session = await this.recent.get(sid, () => this.readSession(sid));
    if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
    if (session.userId !== sub) return null;
    const record = await this.users.sessionUserOf(sub);
    if (!record || record.status !== 'active') return null;
    return { user: record.user, session: { id: session.id, signedInAt: session.createdAt } };
  }

  /**
   * The driver's findOne, not mongoose's query builder: this runs for every authenticated request
   * the cache does not answer, and the few fields read need no casting or hydration. (Typed by the
   * schema's class: the collection's `_id` is the session id, a string.)
   */
  private async readSession(sid: string): Promise<SessionRecord | null> {
    DatabaseAvailability.assertReachable(this.sessions.db); // the driver's own call: the breaker's plugin does not see it
    const sessions = this.sessions.collection as unknown as Collection<Session>;
    const session = await sessions.findOne({ _id: sid }, { projection: { userId: 1, createdAt: 1, expiresAt: 1, revokedAt: 1 } });
    if (!session) return null;
    return {
      id: session._id,
      userId: session.userId.toString(),
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      revokedAt: session.revokedAt ?? null,
    };
  }

  /**
   * Whether these cookies belong to a live session, without rotating anything: for answers that only
   * differ in wording or destination for a signed-in visitor (where a link lands), never for access
   * control, which is the guard's job.
   */
  async isSignedIn(accessToken: string | undefined, refreshToken: string | undefined): Promise<boolean> {
    if ((await this.authenticate(accessToken)).resolved) return true;
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return false;
    const session = await this.sessions.findById(parsed.sid).lean().exec();
    const now = Date.now();
    if (!session || session.revokedAt || session.expiresAt.getTime() <= now || session.refreshExpiresAt.getTime() <= now) return false;
    if (!sameHash(session.refreshHash, sha256(parsed.secret))) return false;
    const user = await this.users.findById(session.userId.toString());
    return user?.status === 'active';
  }

  /**
   * Rotates a refresh token: the presented one is exchanged atomically for a new one. Presenting a
   * token that was already rotated is a reuse (a stolen copy racing its owner) and revokes the
   * session, except for the immediately previous token within a short grace period.
   */
  async refresh(token: string | undefined): Promise<IssuedTokens | null> {
    const parsed = parseRefreshToken(token);
    if (!parsed) return null;
    const presented = sha256(parsed.secret);
    const now = new Date();
    const session = await this.sessions.findById(parsed.sid).lean().exec();
    if (!session || session.revokedAt || session.expiresAt <= now) return null;
    const user = await this.users.findById(session.userId.toString());
    if (!user || user.status !== 'active') return null;
    const sessionUser = toSessionUser(user);

    if (sameHash(session.refreshHash, presented)) {
      if (session.refreshExpiresAt <= now) return null;
      const secret = randomBytes(32).toString('base64url');
      const refreshExpiresAt = new Date(Math.min(now.getTime() + REFRESH_IDLE_TTL_MS, session.expiresAt.getTime()));
      const rotated = await this.sessions
        .updateOne(
          { _id: parsed.sid, refreshHash: presented, revokedAt: null },
          { $set: { refreshHash: sha256(secret), previousRefreshHash: presented, rotatedAt: now, refreshExpiresAt } },
        )
        .exec();
      if (rotated.modifiedCount === 1) {
        return {
          user: sessionUser,
          ...(await this.signAccess(sessionUser.id, parsed.sid)),
          refreshToken: `${parsed.sid}.${secret}`,
          refreshExpiresAt,
        };
      }
      // Lost a race with a concurrent refresh of the same token: fall through to the grace check.
      const fresh = await this.sessions.findById(parsed.sid).lean().exec();
      if (!fresh) return null;
      return this.graceOrRevoke(fresh, presented, sessionUser);
    }
    return this.graceOrRevoke(session, presented, sessionUser);
  }

  private async graceOrRevoke(session: Session, presented: string, user: SessionUser): Promise<IssuedTokens | null> {
    const withinGrace =
      session.previousRefreshHash !== null &&
      sameHash(session.previousRefreshHash, presented) &&
      session.rotatedAt !== null &&
      Date.now() - session.rotatedAt.getTime() < REFRESH_REUSE_GRACE_MS;
    if (withinGrace && !session.revokedAt) {
      return { user, ...(await this.signAccess(user.id, session._id)), refreshToken: null, refreshExpiresAt: session.refreshExpiresAt };
    }
    this.logger.warn(`Refresh token reuse detected; revoking session ${session._id.slice(0, 6)}…`);
    await this.revoke(session._id, 'refresh-token-reuse');
    return null;
  }

  /** Forgets the session here even when the write fails: it may have landed before the error. */
  async revoke(sid: string, reason: string): Promise<void> {
    try {
      await this.sessions.updateOne({ _id: sid, revokedAt: null }, { $set: { revokedAt: new Date(), revokedReason: reason } }).exec();
    } finally {
      this.recent.forget(sid);
    }
  }

  /** Sign-out: revokes the session named by either cookie (the access token may have expired). */
  async revokeTokens(accessToken: string | undefined, refreshToken: string | undefined): Promise<void> {
    const parsed = parseRefreshToken(refreshToken);
    if (parsed) {
      const session = await this.sessions.findById(parsed.sid).lean().exec();
      if (
        session &&
        (sameHash(session.refreshHash, sha256(parsed.secret)) ||
          (session.previousRefreshHash && sameHash(session.previousRefreshHash, sha256(parsed.secret))))
      ) {
        await this.revoke(parsed.sid, 'logout');
      }
    }
    // Expired is fine here (signing out after a while away), forged is not: it cannot revoke somebody else's session.
    const payload = accessToken ? await this.verifyAccessToken(accessToken, true) : null;
    if (typeof payload?.sid === 'string') await this.revoke(payload.sid, 'logout');
  }

  async revokeAllForUser(userId: string, reason: string, exceptSid?: string): Promise<number> {
    const filter: Record<string, unknown> = { userId: new Types.ObjectId(userId), revokedAt: null };
    if (exceptSid) filter._id = { $ne: exceptSid };
    try {
      const result = await this.sessions.updateMany(filter, { $set: { revokedAt: new Date(), revokedReason: reason } }).exec();
      return result.modifiedCount;
    } finally {
      this.recent.forgetWhere((session) => session.userId === userId);
    }
  }

  /** The user's sessions for the data export: no token material, only what a person would recognise. */
  async listForUser(userId: string) {
    const sessions = await this.sessions
      .find({ userId: new Types.ObjectId(userId) })
      .sort({ createdAt: -1 })
      .lean()
      .exec();
    return sessions.map((session) => ({
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      revokedAt: session.revokedAt,
      userAgent: session.userAgent,
    }));
  }

  /** Live sessions: not revoked, within their absolute lifetime, refresh token not idle-expired. */
  countLiveForUser(userId: string, now = new Date()): Promise<number> {
    return this.sessions
      .countDocuments({ userId: new Types.ObjectId(userId), revokedAt: null, expiresAt: { $gt: now }, refreshExpiresAt: { $gt: now } })
      .exec();
  }

  async deleteAllForUser(userId: string): Promise<void> {
    try {
      await this.sessions.deleteMany({ userId: new Types.ObjectId(userId) }).exec();
    } finally {
      this.recent.forgetWhere((session) => session.userId === userId);
    }
  }

  /** Periodic clean-up of expired sessions (stands in for a TTL index). */
  async sweepExpired(now = new Date()): Promise<number> {
    const result = await this.sessions.deleteMany({ expiresAt: { $lt: now } }).exec();
    return result.deletedCount;
  }
}
