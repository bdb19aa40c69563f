import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MailService } from '../mail/mail.service.js';
import { passwordResetMail, verificationMail } from './account-mails.js';
import { AccountTokensService } from './account-tokens.service.js';
import { toSessionUser, UsersService } from '../users/users.service.js';
import { AuthErrorCode, AuthException } from './auth.exception.js';
import type { LoginDto } from './dto/login.dto.js';
import type { RegisterDto } from './dto/register.dto.js';
import { PasswordHasher } from './password-hasher.service.js';
import { type IssuedTokens, SessionsService } from './sessions.service.js';

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly tokens: AccountTokensService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async register(input: RegisterDto, userAgent?: string): Promise<IssuedTokens> {
    const passwordHash = await this.hasher.hash(input.password);
    let user;
    try {
      user = await this.users.create({ name: input.name, email: input.email, passwordHash, newsletterOptIn: input.newsletter });
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new AuthException(AuthErrorCode.EmailTaken, 'An account with this e-mail address already exists');
      }
      throw error;
    }
    await this.sendVerification(toSessionUser(user));
    return this.sessions.create(toSessionUser(user), userAgent);
  }

  /** Sends (again) the link that confirms the account's current e-mail address. */
  async sendVerification(user: SessionUser): Promise<void> {
    const token = await this.tokens.issue('verify-email', user.id, user.email);
    const url = `${this.config.publicUrl}/api/auth/verify-email?token=${token}`;
    await this.mail.enqueue(verificationMail(user.email, user.name, url));
  }

  /** Confirms the current address, or, for an e-mail change, makes the pending address current. */
  async verifyEmail(token: string): Promise<boolean> {
    const consumed = await this.tokens.consume('verify-email', token);
    if (!consumed) return false;
    if (await this.users.markEmailVerified(consumed.userId, consumed.email)) return true;
    try {
      return await this.users.confirmPendingEmail(consumed.userId, consumed.email);
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
  async resetPassword(token: string, password: string): Promise<boolean> {
    const consumed = await this.tokens.consume('reset-password', token);
    if (!consumed) return false;
    await this.users.setPasswordHash(consumed.userId, await this.hasher.hash(password));
    await this.sessions.revokeAllForUser(consumed.userId, 'password-reset');
    return true;
  }

  async login(input: LoginDto, userAgent?: string): Promise<IssuedTokens> {
    const found = await this.users.findByEmail(input.email);
    if (!found) {
      await this.hasher.verifyDecoy(input.password); // same cost whether or not the account exists
      throw new AuthException(AuthErrorCode.InvalidCredentials, 'E-mail or password is incorrect');
    }
    if (!(await this.hasher.verify(found.passwordHash, input.password))) {
      throw new AuthException(AuthErrorCode.InvalidCredentials, 'E-mail or password is incorrect');
    }
    if (found.status !== 'active') {
      throw new AuthException(AuthErrorCode.AccountDisabled, 'This account has been disabled');
    }
    if (this.hasher.needsRehash(found.passwordHash)) {
      await this.users.setPasswordHash(found.id as string, await this.hasher.hash(input.password));
    }
    const user = await this.users.applyConfiguredRole(found);
    return this.sessions.create(toSessionUser(user), userAgent);
  }

  refresh(refreshToken: string | undefined): Promise<IssuedTokens | null> {
    return this.sessions.refresh(refreshToken);
  }

  logout(accessToken: string | undefined, refreshToken: string | undefined): Promise<void> {
    return this.sessions.revokeTokens(accessToken, refreshToken);
  }
}
