import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MailService } from '../mail/mail.service.js';
import { NewsletterService } from '../newsletter/newsletter.service.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import { SiteSettingsService } from '../settings/site-settings.service.js';
import type { UserDocument } from '../users/schemas/user.schema.js';
import { accountExistsMail, passwordResetMail, registrationMail, verificationMail } from './account-mails.js';
import { AccountTokensService } from './account-tokens.service.js';
import { toSessionUser, UsersService } from '../users/users.service.js';
import { AuthErrorCode, AuthException } from './auth.exception.js';
import type { LoginDto } from './dto/login.dto.js';
import type { RegisterDto } from './dto/register.dto.js';
import { deviceAccountKey, type KnownDevice } from './device-cookie.js';
import { PasswordHasher } from './password-hasher.service.js';
import { SecretsService } from './secrets.service.js';
import { SignInLimitsService } from './sign-in-limits.service.js';
import { type IssuedTokens, SessionsService } from './sessions.service.js';

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;
const HOUR = 3600;

/**
 * Mails about one address that anybody can trigger (registering it, signing in to an unconfirmed
 * account) are capped per address, so that the form cannot be used to mail-bomb somebody.
 */
const MAILS_PER_ADDRESS = { scope: 'account' as const, limit: 3, windowSeconds: HOUR };

export interface SignedIn {
  tokens: IssuedTokens;
  /** This account's key in the browser's device cookie. */
  accountKey: string;
}

export interface Registration {
  /** The normalised address the link was sent to. */
  email: string;
  /** For the browser's signed `hs_signup` note: matches the account's nonce only when this browser may be signed in by the link. */
  nonce: string;
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly tokens: AccountTokensService,
    private readonly mail: MailService,
    private readonly limits: RateLimitService,
    private readonly signInLimits: SignInLimitsService,
    private readonly secrets: SecretsService,
    private readonly newsletter: NewsletterService,
    private readonly siteSettings: SiteSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Registration answers the same way, at about the same cost (one argon2 operation), whether or
   * not the address already has an account: anything else would tell a stranger who uses Hitscope.
   * - A new address: an unconfirmed account; the link sent to the address finishes the sign-up.
   * - An unconfirmed account: the link is sent again. With the same password (the same person
   *   retrying, e.g. after an answer lost to a network failure) this browser is signed in by it too;
   *   with another password the account and its password stay as they are, and the link only
   *   confirms the address: nobody is ever signed in to an account whose password a stranger chose.
   * - A confirmed account: nothing changes; its owner is told by e-mail, with a sign-in and a reset link.
   * Retrying a registration is therefore always safe: it answers the same and creates nothing twice.
   */
  async register(input: RegisterDto, ip?: string): Promise<Registration> {
    if (!(await this.siteSettings.registrationOpen())) {
      throw new AuthException(AuthErrorCode.RegistrationClosed, 'Registration is closed. If you already have an account, sign in.');
    }
    const registration = await this.registerAccount(input);
    // The opt-in is a sign-up like the home page's (its own confirmation link, the same throttle and
    // the same silence about the address's state), whatever became of the account.
    if (input.newsletter) await this.newsletter.subscribe({ email: registration.email, source: 'register', ip });
    return registration;
  }

  private async registerAccount(input: RegisterDto): Promise<Registration> {
    const email = this.users.normaliseEmail(input.email);
    const nonce = randomBytes(18).toString('base64url');
    const existing = await this.users.findByEmail(email);
    if (!existing) {
      const passwordHash = await this.hasher.hash(input.password);
      try {
        const user = await this.users.create({
          name: input.name,
          email,
          passwordHash,
          newsletterOptIn: input.newsletter,
          registrationNonce: nonce,
        });
        await this.mailRegistrationLink(user);
        return { email, nonce };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // Registered by a concurrent request meanwhile: answer as for an existing account.
        const winner = await this.users.findByEmail(email);
        if (winner) await this.registerExisting(winner, input.password, nonce, false);
        return { email, nonce };
      }
    }
    await this.registerExisting(existing, input.password, nonce, true);
    return { email, nonce };
  }

  private async registerExisting(user: UserDocument, password: string, nonce: string, checkPassword: boolean): Promise<void> {
    const samePassword = checkPassword ? await this.hasher.verify(user.passwordHash, password) : false;
    if (user.emailVerifiedAt) {
      await this.mailOnce(user.email, () =>
        accountExistsMail(user.email, `${this.config.publicUrl}/login`, `${this.config.publicUrl}/login?forgot=1`),
      );
      return;
    }
    if (samePassword) await this.users.renewRegistration(user.id as string, nonce);
    await this.mailRegistrationLink(user);
  }

  private async mailRegistrationLink(user: UserDocument): Promise<void> {
    const token = await this.tokens.issue('verify-email', user.id as string, user.email);
    await this.mailOnce(user.email, () =>
      registrationMail(user.email, user.name, `${this.config.publicUrl}/api/auth/verify-email?token=${token}`),
    );
  }

  /** Enqueues a mail to an address unless that address has had its share this hour. */
  private async mailOnce(email: string, build: () => ReturnType<typeof registrationMail>): Promise<void> {
    const { allowed } = await this.limits.take('account-mail', MAILS_PER_ADDRESS, email);
    if (allowed) await this.mail.enqueue(build());
    else this.logger.warn('An address reached its hourly share of account e-mails; one was not sent');
  }

  /** Sends (again) the link that confirms the account's current e-mail address. */
  async sendVerification(user: SessionUser): Promise<void> {
    const token = await this.tokens.issue('verify-email', user.id, user.email);
    const url = `${this.config.publicUrl}/api/auth/verify-email?token=${token}`;
    await this.mail.enqueue(verificationMail(user.email, user.name, url));
  }

  /**
   * Confirms the current address, or, for an e-mail change, makes the pending address current.
   * With the note of the browser that registered (`registrationNonce`), a pending registration is
   * finished and its user answered, to be signed in.
   */
  async verifyEmail(
    token: string,
    registrationNonce: string | null = null,
    userAgent?: string,
  ): Promise<{ verified: boolean; signIn: IssuedTokens | null }> {
    const consumed = await this.tokens.consume('verify-email', token);
    if (!consumed) return { verified: false, signIn: null };
    if (await this.users.completeRegistration(consumed.userId, consumed.email, registrationNonce)) {
      const user = await this.users.findById(consumed.userId);
      if (user?.status !== 'active') return { verified: true, signIn: null };
      return { verified: true, signIn: await this.sessions.create(toSessionUser(await this.users.applyConfiguredRole(user)), userAgent) };
    }
    return { verified: await this.confirmAddress(consumed.userId, consumed.email), signIn: null };
  }

  private async confirmAddress(userId: string, email: string): Promise<boolean> {
    if (await this.users.markEmailVerified(userId, email)) return true;
    try {
      return await this.users.confirmPendingEmail(userId, email);
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false; // somebody registered it meanwhile
      throw error;
    }
  }

  /** Whether the browser presenting these cookies is signed in; nothing is rotated or revoked. */
  isSignedIn(accessToken: string | undefined, refreshToken: string | undefined): Promise<boolean> {
    return this.sessions.isSignedIn(accessToken, refreshToken);
  }

  /** Sends the verification link for a new address; the account keeps its old address until then. */
  async sendEmailChangeVerification(user: SessionUser, newEmail: string): Promise<void> {
    const token = await this.tokens.issue('verify-email', user.id, newEmail);
    const url = `${this.config.publicUrl}/api/auth/verify-email?token=${token}`;
    await this.mail.enqueue(verificationMail(newEmail, user.name, url));
  }

  /**
   * Answers the same way, in about the same time, whether or not the account exists: the lookup
   * happens in both cases, and the token and e-mail work runs after the response is decided.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || user.status !== 'active') return;
    void (async () => {
      const token = await this.tokens.issue('reset-password', user.id as string, user.email);
      await this.mail.enqueue(passwordResetMail(user.email, `${this.config.publicUrl}/login?reset=${token}`));
    })().catch((error: Error) => this.logger.error(`Could not send a password reset: ${error.message}`));
  }

  /** Single use; signs the account out everywhere, since whoever knew the old password may be in. */
  async resetPassword(token: string, password: string): Promise<string | null> {
    const consumed = await this.tokens.consume('reset-password', token);
    if (!consumed) return null;
    await this.users.setPasswordHash(consumed.userId, await this.hasher.hash(password));
    // The link came through the mailbox: that confirms the address (and ends a registration).
    await this.users.markEmailVerified(consumed.userId, consumed.email);
    await this.sessions.revokeAllForUser(consumed.userId, 'password-reset');
    return consumed.userId;
  }

  /**
   * A password sign-in from `client` (its IP and the accounts its device cookie knows). The limits
   * of SignInLimitsService apply before the password is checked; a correct password gives its
   * attempt back. Answers the tokens and the account's device key, to remember this browser by.
   */
  async login(input: LoginDto, userAgent: string | undefined, client: { ip: string; device: KnownDevice }): Promise<SignedIn> {
    const email = this.users.normaliseEmail(input.email);
    const found = await this.users.findByEmail(email);
    const accountKey = found ? deviceAccountKey(this.secrets.authSecret, found.id as string) : null;
    const knownDevice = accountKey && client.device.accountKeys.includes(accountKey) ? accountKey : null;
    const reserved = await this.signInLimits.reserve({ email, ip: client.ip, knownDevice });
    if (!found) {
      await this.hasher.verifyDecoy(input.password); // same cost whether or not the account exists
      throw new AuthException(AuthErrorCode.InvalidCredentials, 'E-mail or password is incorrect');
    }
    if (!(await this.hasher.verify(found.passwordHash, input.password))) {
      throw new AuthException(AuthErrorCode.InvalidCredentials, 'E-mail or password is incorrect');
    }
    await this.signInLimits.release(reserved);
    if (found.status !== 'active') {
      throw new AuthException(AuthErrorCode.AccountDisabled, 'This account has been disabled');
    }
    // Only the owner of the address may use the account: until the link is followed, the password
    // may be a stranger's who registered the address first. Said only to whoever knows the password.
    if (!found.emailVerifiedAt) {
      await this.mailRegistrationLink(found);
      throw new AuthException(
        AuthErrorCode.EmailNotVerified,
        `Confirm your e-mail address first: we sent a link to ${found.email}. Follow it to finish creating your account.`,
      );
    }
    if (this.hasher.needsRehash(found.passwordHash)) {
      await this.users.setPasswordHash(found.id as string, await this.hasher.hash(input.password));
    }
    const user = await this.users.applyConfiguredRole(found);
    return { tokens: await this.sessions.create(toSessionUser(user), userAgent), accountKey: accountKey! };
  }

  /** The key under which a browser that signed in to `userId` remembers it (device cookie). */
  deviceKeyOf(userId: string): string {
    return deviceAccountKey(this.secrets.authSecret, userId);
  }

  refresh(refreshToken: string | undefined): Promise<IssuedTokens | null> {
    return this.sessions.refresh(refreshToken);
  }

  logout(accessToken: string | undefined, refreshToken: string | undefined): Promise<void> {
    return this.sessions.revokeTokens(accessToken, refreshToken);
  }
}
