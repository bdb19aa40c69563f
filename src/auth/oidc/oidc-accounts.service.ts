import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { type Model, Types } from 'mongoose';
import type { UserDocument } from '../../users/schemas/user.schema.js';
import { SiteSettingsService } from '../../settings/site-settings.service.js';
import { toSessionUser, UsersService } from '../../users/users.service.js';
import { PasswordHasher } from '../password-hasher.service.js';
import { type IssuedTokens, SessionsService } from '../sessions.service.js';
import type { OidcIdentityClaims } from './oidc-client.service.js';
import { OidcException } from './oidc.exception.js';
import { OidcIdentity } from './schemas/oidc-identity.schema.js';

export interface LinkedIdentity {
  issuer: string;
  subject: string;
  linkedAt: string;
  lastSignInAt: string;
}

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

/**
 * Turns a provider identity into a Hitscope session. The order is the policy:
 * 1. an existing link (issuer + subject) wins, whatever e-mail the provider sends today;
 * 2. otherwise only a provider-verified e-mail may link or create an account — an unverified one
 *    is refused, or anybody could claim any address at a provider that does not check it;
 * 3. disabled accounts are refused either way.
 */
@Injectable()
export class OidcAccountsService {
  private readonly logger = new Logger(OidcAccountsService.name);

  constructor(
    @InjectModel(OidcIdentity.name) private readonly identities: Model<OidcIdentity>,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly siteSettings: SiteSettingsService,
  ) {}

  async signIn(identity: OidcIdentityClaims, userAgent?: string): Promise<IssuedTokens> {
    const user = (await this.linkedUser(identity)) ?? (await this.linkByVerifiedEmail(identity));
    if (user.status !== 'active') throw new OidcException('disabled', 'This account has been disabled');
    const current = await this.users.applyConfiguredRole(user);
    return this.sessions.create(toSessionUser(current), userAgent);
  }

  /** For account deletion: the links go with the account. */
  async deleteAllForUser(userId: string): Promise<void> {
    await this.identities.deleteMany({ userId: new Types.ObjectId(userId) }).exec();
  }

  /** For the data export: which provider accounts sign in here (no tokens are ever stored). */
  async listForUser(userId: string): Promise<LinkedIdentity[]> {
    const links = await this.identities
      .find({ userId: new Types.ObjectId(userId) })
      .sort({ createdAt: 1 })
      .lean()
      .exec();
    return links.map((link) => ({
      issuer: link.issuer,
      subject: link.subject,
      linkedAt: link.createdAt.toISOString(),
      lastSignInAt: link.lastSignInAt.toISOString(),
    }));
  }

  /** A link whose account was deleted counts as no link: the e-mail rules decide again. */
  private async linkedUser({ issuer, subject }: OidcIdentityClaims): Promise<UserDocument | null> {
    const link = await this.identities
      .findOneAndUpdate({ issuer, subject }, { $set: { lastSignInAt: new Date() } }, { returnDocument: 'after' })
      .lean()
      .exec();
    return link ? this.users.findById(link.userId.toString()) : null;
  }

  private async linkByVerifiedEmail(identity: OidcIdentityClaims): Promise<UserDocument> {
    if (!identity.email || !identity.emailVerified) {
      throw new OidcException('unverified_email', 'The provider has not verified this e-mail address');
    }
    const existing = await this.users.findByEmail(identity.email);
    let user: UserDocument;
    if (existing) {
      // A disabled account is not touched: no link, no password change.
      if (existing.status !== 'active') return existing;
      if (!existing.emailVerifiedAt) await this.claimUnverifiedAccount(existing);
      user = existing;
    } else {
      // Closed registration refuses only what would create an account: linked and existing ones sign in.
      if (!(await this.siteSettings.registrationOpen())) {
        throw new OidcException('registration_closed', 'Registration is closed');
      }
      user = await this.createUser(identity, identity.email);
    }
    await this.link(identity, user);
    return user;
  }

  /**
   * The account was registered with this address but nobody ever proved owning it; the provider
   * just did. Whoever chose the password may be somebody else waiting for the owner to arrive
   * (account pre-hijacking), so that password and any session it opened stop working. The owner
   * can set a password again with "Forgot your password?", which now reaches them.
   */
  private async claimUnverifiedAccount(user: UserDocument): Promise<void> {
    const id = user.id as string;
    await this.users.clearPassword(id, await this.unusablePasswordHash());
    await this.sessions.revokeAllForUser(id, 'oidc-claimed-unverified-email');
    await this.users.markEmailVerified(id, user.email);
    this.logger.log(`Linked a provider identity to account ${id.slice(-6)}, whose e-mail was unverified; its password was reset`);
  }

  private async createUser(identity: OidcIdentityClaims, email: string): Promise<UserDocument> {
    const name = (identity.name ?? email.split('@')[0]).slice(0, 100);
    let user: UserDocument;
    try {
      user = await this.users.create({ name, email, passwordHash: await this.unusablePasswordHash(), passwordSet: false });
    } catch (error) {
      // A concurrent first sign-in of the same person created it a moment ago.
      if (isDuplicateKey(error)) {
        const created = await this.users.findByEmail(email);
        if (created) return created;
      }
      throw error;
    }
    await this.users.markEmailVerified(user.id as string, email);
    return user;
  }

  private async link({ issuer, subject, email }: OidcIdentityClaims, user: UserDocument): Promise<void> {
    const now = new Date();
    try {
      await this.identities
        .updateOne(
          { issuer, subject },
          { $set: { userId: user._id, lastSignInAt: now, emailAtLink: email }, $setOnInsert: { createdAt: now } },
          { upsert: true },
        )
        .exec();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // a concurrent sign-in made the same link
    }
  }

  /** A valid argon2id hash of 32 random bytes nobody knows: password sign-in simply never matches. */
  private unusablePasswordHash(): Promise<string> {
    return this.hasher.hash(randomBytes(32).toString('base64url'));
  }
}
