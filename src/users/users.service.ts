import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { type Connection, isValidObjectId, type Model } from 'mongoose';
import { normaliseEmailAddress } from '../../lib/accounts/email-address.js';
import type { SessionUser } from '../../lib/api/auth.js';
import { avatarUrl } from '../../lib/api/profile.js';
import { parseColorMode } from '../../lib/client-constants.js';
import { ReadCache } from '../common/read-cache.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { BACKGROUND_READ_BATCH } from '../database/database-server.js';
import { SIDE_CONNECTION } from '../database/database.module.js';
import { once } from '../database/once.js';
import { ReadBatcher } from '../database/read-batcher.js';
import { isDuplicateKey } from '../database/upsert.js';
import { User, type UserDocument } from './schemas/user.schema.js';

/**
 * How long a user resolved for a session is kept in memory. Every change made through this service
 * forgets it at once, so on the instance that made it a role change or a disabled account takes effect
 * on the next request; other instances see it within this time (a revoked session within
 * SESSION_CACHE_MS, one second).
 */
export const SESSION_USER_CACHE_MS = 5_000;

/** What a session needs of its user: what the API and pages show, and whether the account may sign in. */
export interface SessionUserRecord {
  user: SessionUser;
  status: User['status'];
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  /** False when the hash is of a random secret (accounts created through an OpenID provider). */
  passwordSet?: boolean;
  newsletterOptIn?: boolean;
  /** An unconfirmed registration (see `User.registrationNonce`); absent: the address is confirmed already. */
  registrationNonce?: string;
}

export interface ProfileChanges {
  name?: string;
  colorMode?: User['colorMode'];
  newsletterOptIn?: boolean;
  pendingEmail?: string | null;
  avatarId?: string | null;
}

/** The signed-in user as the API, the page guards and the app's header see them. */
export function toSessionUser(user: Pick<UserDocument, 'id' | 'name' | 'email' | 'role' | 'avatarId' | 'colorMode'>): SessionUser {
  return {
    id: user.id as string,
    name: user.name,
    email: user.email,
    role: user.role,
    avatarUrl: avatarUrl(user.avatarId),
    // Documents written before the field existed have none: the schema's default.
    colorMode: parseColorMode(user.colorMode),
  };
}

/** Addresses stored before the e-mail rule may hold a domain as typed (`münchen.de`): any character beyond printable ASCII. */
const BEYOND_PRINTABLE_ASCII = /[^ -~]/;
/** Accounts read per query by the one-time address check (normaliseStoredAddresses). */
const ADDRESS_CHECK_PAGE = 200;

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UsersService.name);
  private readonly sessionUsers = new ReadCache<SessionUserRecord>(SESSION_USER_CACHE_MS, 10_000);
  private readonly recipients: ReadBatcher<Pick<User, 'email' | 'name'> & { _id: unknown }>;

  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectModel(User.name, SIDE_CONNECTION) userReads: Model<User>,
  ) {
    this.recipients = new ReadBatcher(userReads as never, { projection: { email: 1, name: 1 } });
  }

  /**
   * In the background: a database that is down at start-up must not keep the app from starting.
   * Once per database (database/once.ts): addresses stored since are in normal form already.
   */
  onApplicationBootstrap(): void {
    once(this.connection, 'normal-form-addresses', async () => {
      await this.normaliseStoredAddresses();
    }).catch((error: Error) => this.logger.warn(`Could not check stored e-mail addresses: ${error.message}`));
  }

  /**
   * Before the e-mail rule (lib/accounts/email-address.ts), an internationalised domain was stored
   * as typed (`ada@münchen.de`), and sign-in now looks up the ASCII form (`ada@xn--mnchen-3ya.de`):
   * such addresses are rewritten to their normal form, once. One whose normal form another account
   * already has is left as it is and logged. Idempotent; answers how many accounts changed.
   *
   * The accounts are read ADDRESS_CHECK_PAGE at a time in `_id` order and checked here: one query
   * with a regular expression was one command reading every account (over 10 s at 100 000 users on
   * the embedded database), and the start-up's other queries timed out behind it on its connection.
   */
  async normaliseStoredAddresses(): Promise<number> {
    let changed = 0;
    for (let after: unknown = undefined; ;) {
      const page = await this.users
        .find(after === undefined ? {} : { _id: { $gt: after } }, { email: 1, pendingEmail: 1 })
        .sort({ _id: 1 })
        .limit(ADDRESS_CHECK_PAGE)
        .lean()
        .exec();
      if (!page.length) break;
      after = page[page.length - 1]._id;
      changed += await this.normaliseAddressesOf(page);
    }
    if (changed) this.logger.log(`Stored ${changed} e-mail address(es) in normal form (ASCII domain)`);
    return changed;
  }

  private async normaliseAddressesOf(users: Array<{ _id: unknown; email?: string; pendingEmail?: string | null }>): Promise<number> {
    let changed = 0;
    for (const user of users) {
      if (!BEYOND_PRINTABLE_ASCII.test(user.email ?? '') && !BEYOND_PRINTABLE_ASCII.test(user.pendingEmail ?? '')) continue;
      const set: Partial<Record<'email' | 'pendingEmail', string>> = {};
      for (const field of ['email', 'pendingEmail'] as const) {
        const stored = user[field];
        const normal = stored ? normaliseEmailAddress(stored) : null;
        if (normal && normal !== stored) set[field] = normal;
      }
      if (!Object.keys(set).length) continue;
      try {
        const result = await this.changing(
          String(user._id),
          this.users.updateOne({ _id: user._id, email: user.email }, { $set: set }).exec(),
        );
        changed += result.modifiedCount;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        this.logger.warn(`Account ${String(user._id)}: its e-mail address in normal form belongs to another account; left as it is`);
      }
    }
    return changed;
  }

  /**
   * The form an address is stored and looked up in (lib/accounts/email-address.ts: trimmed, ASCII
   * domain, lower case). An address that rule refuses is returned unchanged: it cannot equal any
   * stored address, which are all in normal form, so a lookup of it finds nothing. The DTOs refuse
   * such addresses before they get here.
   */
  normaliseEmail(email: string): string {
    return normaliseEmailAddress(email) ?? email;
  }

  findByEmail(email: string): Promise<UserDocument | null> {
    return this.users.findOne({ email: this.normaliseEmail(email) }).exec();
  }

  findById(id: string): Promise<UserDocument | null> {
    return this.users.findById(id).exec();
  }

  /**
   * Whom a mail about this account goes to (its address and name), or null when there is no such
   * account. Read with the other recipients asked for at the same moment (a burst of webhook events
   * mailing their buyers), in one command.
   */
  async recipientOf(id: string): Promise<{ email: string; name: string } | null> {
    if (!isValidObjectId(id)) return null;
    const user = await this.recipients.findById(id);
    return user ? { email: user.email, name: user.name } : null;
  }

  /** The user behind a session, from memory when read in the last few seconds (see SESSION_USER_CACHE_MS). */
  sessionUserOf(id: string): Promise<SessionUserRecord | null> {
    return this.sessionUsers.get(id, async () => {
      const user = await this.users.findById(id, { name: 1, email: 1, role: 1, avatarId: 1, colorMode: 1, status: 1 }).lean().exec();
      return user ? { user: toSessionUser({ ...user, id: String(user._id) }), status: user.status } : null;
    });
  }

  /** Every write below goes through here: what a session shows of this user is read again on its next request. */
  private async changing<T>(id: unknown, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.sessionUsers.forget(String(id));
    }
  }

  /** Throws the driver's duplicate-key error (code 11000) when the e-mail is taken. */
  async create(input: NewUser): Promise<UserDocument> {
    const email = normaliseEmailAddress(input.email);
    if (!email) throw new Error('An account cannot be created for an address the e-mail rule refuses');
    return this.users.create({
      name: input.name.trim(),
      email,
      passwordHash: input.passwordHash,
      passwordSet: input.passwordSet ?? true,
      newsletterOptIn: input.newsletterOptIn ?? false,
      role: this.isConfiguredAdmin(email) ? 'admin' : 'user',
      registrationNonce: input.registrationNonce ?? null,
      emailVerifiedAt: input.registrationNonce ? null : new Date(),
    });
  }

  /** A new registration of an unconfirmed account by the same person (same password): its link signs in. */
  async renewRegistration(id: string, registrationNonce: string): Promise<void> {
    await this.changing(id, this.users.updateOne({ _id: id, emailVerifiedAt: null }, { $set: { registrationNonce } }).exec());
  }

  /**
   * Confirms the address of a registration and ends it. Answers whether the nonce was the one this
   * registration was waiting for (then the browser holding it may be signed in).
   */
  async completeRegistration(id: string, email: string, registrationNonce: string | null): Promise<boolean> {
    if (!registrationNonce) return false;
    const result = await this.changing(
      id,
      this.users
        .updateOne(
          { _id: id, email: this.normaliseEmail(email), registrationNonce },
          { $set: { emailVerifiedAt: new Date(), registrationNonce: null } },
        )
        .exec(),
    );
    return result.modifiedCount === 1;
  }

  isConfiguredAdmin(email: string): boolean {
    return this.config.adminEmails.includes(this.normaliseEmail(email));
  }

  /** ADMIN_EMAILS bootstraps the first admins: promoted when they sign in. Never demotes. */
  async applyConfiguredRole(user: UserDocument): Promise<UserDocument> {
    if (user.role !== 'admin' && this.isConfiguredAdmin(user.email)) {
      user.role = 'admin';
      await this.changing(user._id, this.users.updateOne({ _id: user._id }, { $set: { role: 'admin' } }).exec());
    }
    return user;
  }

  async updateProfile(id: string, changes: ProfileChanges): Promise<UserDocument | null> {
    return this.changing(id, this.users.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after', runValidators: true }).exec());
  }

  /**
   * Makes a verified pending address the account's e-mail. The unique index on `email` refuses an
   * address another account took meanwhile (duplicate-key error, code 11000).
   */
  async confirmPendingEmail(id: string, email: string): Promise<boolean> {
    const result = await this.changing(
      id,
      this.users
        .updateOne(
          { _id: id, pendingEmail: this.normaliseEmail(email) },
          { $set: { email: this.normaliseEmail(email), pendingEmail: null, emailVerifiedAt: new Date() } },
        )
        .exec(),
    );
    return result.modifiedCount === 1;
  }

  async deleteById(id: string): Promise<void> {
    await this.changing(id, this.users.deleteOne({ _id: id }).exec());
  }

  /** Only marks the address that was verified: a link for an old address cannot verify a new one. */
  async markEmailVerified(id: string, email: string): Promise<boolean> {
    const result = await this.users
      .updateOne({ _id: id, email: this.normaliseEmail(email) }, { $set: { emailVerifiedAt: new Date(), registrationNonce: null } })
      .exec();
    return result.matchedCount === 1;
  }

  /** A password the owner chose (registration, reset, change). */
  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { passwordHash, passwordSet: true } }).exec();
  }

  /** Replaces the password with a hash of a secret nobody knows: sign-in goes through the provider. */
  async clearPassword(id: string, unusableHash: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { passwordHash: unusableHash, passwordSet: false } }).exec();
  }

  async promote(email: string): Promise<UserDocument | null> {
    const user = await this.users
      .findOneAndUpdate({ email: this.normaliseEmail(email) }, { $set: { role: 'admin' } }, { returnDocument: 'after' })
      .exec();
    if (user) this.sessionUsers.forget(user.id as string);
    return user;
  }

  /**
   * The admin list: optional search in name or e-mail (case-insensitive; `q` is matched literally,
   * regex metacharacters escaped), role and status filters, one page in a stable order (ties broken
   * by _id so pages never overlap), and the total. Count + find: FerretDB has no $facet.
   */
  async search(options: UserSearch): Promise<{ users: UserDocument[]; total: number }> {
    const filter: Record<string, unknown> = {};
    const q = options.q?.trim();
    if (q) {
      const pattern = new RegExp(escapeRegExp(q), 'i');
      filter.$or = [{ name: pattern }, { email: pattern }];
    }
    if (options.role) filter.role = options.role;
    if (options.status) filter.status = options.status;
    const direction = options.order === 'asc' ? 1 : -1;
    const [total, users] = await Promise.all([
      this.users.countDocuments(filter).exec(),
      this.users
        .find(filter)
        .sort({ [options.sort]: direction, _id: direction })
        .skip(options.skip)
        .limit(options.limit)
        .exec(),
    ]);
    return { users, total };
  }

  /**
   * The overview's sign-ups: every account (unconfirmed registrations included, as /admin/users lists
   * them) and the creation times of those created since `since`. A count and one projected read.
   */
  /** Accounts created in [from, until): a count by the createdAt index. */
  countCreatedBetween(from: Date, until: Date): Promise<number> {
    return this.users.countDocuments({ createdAt: { $gte: from, $lt: until } }).exec();
  }

  async signupsSince(since: Date): Promise<{ total: number; createdAt: Date[] }> {
    const [total, recent] = await Promise.all([
      this.users.countDocuments({}).exec(),
      this.users
        .find({ createdAt: { $gte: since } }, { _id: 0, createdAt: 1 })
        // 30 days of sign-ups are thousands of accounts: read in small batches, in the background.
        .batchSize(BACKGROUND_READ_BATCH)
        .lean<Array<Pick<User, 'createdAt'>>>()
        .exec(),
    ]);
    return { total, createdAt: recent.map((user) => user.createdAt) };
  }

  /**
   * The ids of every admin, and nothing else: no count and no order, so the database reads only the
   * admins (by the `role` index on MongoDB, and on FerretDB over PostgreSQL by the launcher's).
   */
  async adminIds(): Promise<string[]> {
    const admins = await this.users.find({ role: 'admin' }, { _id: 1 }).lean<Array<{ _id: unknown }>>().exec();
    return admins.map((admin) => String(admin._id));
  }

  /** Admins who can sign in: the number that must never drop to zero. */
  countActiveAdmins(): Promise<number> {
    return this.users.countDocuments({ role: 'admin', status: 'active' }).exec();
  }

  /**
   * Compare-and-set on the role: changes it only if it is still `from`, so two admins acting on the
   * same account at once cannot both "win". Null when the stored role was no longer `from`.
   */
  setRoleIf(id: string, from: User['role'], to: User['role']): Promise<UserDocument | null> {
    return this.changing(
      id,
      this.users.findOneAndUpdate({ _id: id, role: from }, { $set: { role: to } }, { returnDocument: 'after' }).exec(),
    );
  }

  /** Compare-and-set on the status, like setRoleIf. */
  setStatusIf(id: string, from: User['status'], to: User['status']): Promise<UserDocument | null> {
    return this.changing(
      id,
      this.users.findOneAndUpdate({ _id: id, status: from }, { $set: { status: to } }, { returnDocument: 'after' }).exec(),
    );
  }
}

export interface UserSearch {
  q?: string;
  role?: User['role'];
  status?: User['status'];
  sort: 'createdAt' | 'name' | 'email';
  order: 'asc' | 'desc';
  skip: number;
  limit: number;
}

/** `q` is user input: matched as text, never as a pattern (no ReDoS, no "invalid regex" 500s). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
