import { Injectable } from '@nestjs/common';
import { toSessionUser, UsersService } from '../users/users.service.js';
import { AuthErrorCode, AuthException } from './auth.exception.js';
import type { LoginDto } from './dto/login.dto.js';
import type { RegisterDto } from './dto/register.dto.js';
import { PasswordHasher } from './password-hasher.service.js';
import { type IssuedTokens, SessionsService } from './sessions.service.js';

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
  ) {}

  async register(input: RegisterDto, userAgent?: string): Promise<IssuedTokens> {
    const passwordHash = await this.hasher.hash(input.password);
    let user;
    try {
      user = await this.users.create({ name: input.name, email: input.email, passwordHash });
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new AuthException(AuthErrorCode.EmailTaken, 'An account with this e-mail address already exists');
      }
      throw error;
    }
    return this.sessions.create(toSessionUser(user), userAgent);
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
