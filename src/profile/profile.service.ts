import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import { AVATAR_MAX_BYTES, type ProfileResponse } from '../../lib/api/profile.js';
import { AccountDataRegistry } from '../account-data/account-data.registry.js';
import { AuthService } from '../auth/auth.service.js';
import { PasswordHasher } from '../auth/password-hasher.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { fieldError } from '../common/validation.js';
import { FileStorage, type StoredFile } from '../storage/file-storage.js';
import { sniffImageType } from '../storage/image-type.js';
import type { UserDocument } from '../users/schemas/user.schema.js';
import { UsersService } from '../users/users.service.js';
import { NewsletterService } from '../newsletter/newsletter.service.js';
import type { ChangeEmailDto, ChangePasswordDto, UpdateProfileDto } from './dto/profile.dto.js';
import { toProfileResponse } from './dto/profile.response.js';
import { ProfileErrorCode, ProfileException } from './profile.exception.js';

export const AVATAR_BUCKET = 'avatars';
/** How recent a sign-in must be to delete an account that has no password (OpenID sign-in only). */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;
export const AVATAR_CACHE_CONTROL = 'public, max-age=31536000, immutable';

@Injectable()
export class ProfileService {
  private readonly logger = new Logger(ProfileService.name);

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly auth: AuthService,
    private readonly files: FileStorage,
    private readonly accountData: AccountDataRegistry,
    private readonly newsletter: NewsletterService,
  ) {}

  private async load(user: SessionUser): Promise<UserDocument> {
    const found = await this.users.findById(user.id);
    if (!found) throw new NotFoundException('This account no longer exists');
    return found;
  }

  private async checkPassword(user: UserDocument, password: string): Promise<void> {
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      throw new ProfileException(ProfileErrorCode.WrongPassword, 'Your current password is not correct');
    }
  }

  private async respond(user: UserDocument): Promise<ProfileResponse> {
    return toProfileResponse(user, await this.newsletter.stateOf(user.email));
  }

  async get(user: SessionUser): Promise<ProfileResponse> {
    return this.respond(await this.load(user));
  }

  /** `ip` goes into the newsletter's consent proof (hashed) when the opt-in changes. */
  async update(user: SessionUser, changes: UpdateProfileDto, ip?: string): Promise<ProfileResponse> {
    const updated = await this.users.updateProfile(user.id, changes);
    if (!updated) throw new NotFoundException('This account no longer exists');
    if (changes.newsletterOptIn !== undefined) {
      await this.newsletter.setFromAccount(updated.email, changes.newsletterOptIn, Boolean(updated.emailVerifiedAt), ip);
    }
    return this.respond(updated);
  }

  /** The address changes only when the link sent to the new one is followed. */
  async requestEmailChange(user: SessionUser, input: ChangeEmailDto): Promise<ProfileResponse> {
    const current = await this.load(user);
    await this.checkPassword(current, input.currentPassword);
    const email = this.users.normaliseEmail(input.email);
    if (email === current.email) throw new ProfileException(ProfileErrorCode.SameEmail, 'That is already your e-mail address');
    if (await this.users.findByEmail(email)) {
      throw new ProfileException(ProfileErrorCode.EmailTaken, 'An account with this e-mail address already exists');
    }
    const updated = await this.users.updateProfile(user.id, { pendingEmail: email });
    await this.auth.sendEmailChangeVerification(user, email);
    return this.respond(updated!);
  }

  async changePassword(user: SessionUser, input: ChangePasswordDto, currentSessionId: string): Promise<{ signedOutSessions: number }> {
    const current = await this.load(user);
    await this.checkPassword(current, input.currentPassword);
    await this.users.setPasswordHash(user.id, await this.hasher.hash(input.newPassword));
    const signedOutSessions = input.signOutOtherSessions
      ? await this.sessions.revokeAllForUser(user.id, 'password-change', currentSessionId)
      : 0;
    return { signedOutSessions };
  }

  /** Type and size are checked from the bytes, not from what the browser claims. */
  async setAvatar(user: SessionUser, file: { buffer: Buffer; size: number } | undefined): Promise<ProfileResponse> {
    if (!file?.buffer?.length) throw new ProfileException(ProfileErrorCode.BadAvatar, 'Choose an image file to upload');
    if (file.size > AVATAR_MAX_BYTES) throw new ProfileException(ProfileErrorCode.BadAvatar, 'The image must be 1 MB or smaller');
    const contentType = sniffImageType(file.buffer);
    if (!contentType) throw new ProfileException(ProfileErrorCode.BadAvatar, 'The avatar must be a PNG, JPEG or WebP image');
    const current = await this.load(user);
    // Store the new file first, then point the account at it, then remove the old one: a failure at
    // any step leaves either the old or the new avatar in place, never a dangling reference (an
    // unavailable storage fails the upload with 503 before the account changes).
    const avatarId = await this.files.put(AVATAR_BUCKET, {
      body: file.buffer,
      contentType,
      length: file.buffer.length,
      cacheControl: AVATAR_CACHE_CONTROL,
      filename: `avatar-${user.id}`,
    });
    const updated = await this.users.updateProfile(user.id, { avatarId });
    if (!updated) {
      await this.files.delete(AVATAR_BUCKET, avatarId);
      throw new NotFoundException('This account no longer exists');
    }
    // The new avatar is in place and the request has succeeded; an old file that cannot be removed
    // now is only an unreferenced object, so it is logged for clean-up rather than failing the change.
    await this.files.delete(AVATAR_BUCKET, current.avatarId).catch((error: Error) => {
      this.logger.warn(`Could not remove the replaced avatar ${current.avatarId ?? ''} (${error.message}); it is no longer referenced`);
    });
    return this.respond(updated);
  }

  /** The file goes first: when storage is unavailable nothing changes (503) and a retry finishes the job. */
  async removeAvatar(user: SessionUser): Promise<ProfileResponse> {
    const current = await this.load(user);
    await this.files.delete(AVATAR_BUCKET, current.avatarId);
    const updated = await this.users.updateProfile(user.id, { avatarId: null });
    return this.respond(updated!);
  }

  /** Public images addressed by an unguessable id; a missing one is a 404. */
  async avatar(id: string): Promise<StoredFile> {
    const file = await this.files.get(AVATAR_BUCKET, id);
    if (!file) throw new NotFoundException('No such avatar');
    return file;
  }

  /** "Export my data": every module that keeps something about the person adds its part. */
  async export(user: SessionUser) {
    await this.load(user);
    return { exportedAt: new Date().toISOString(), ...(await this.accountData.exportFor(user.id)) };
  }

  /**
   * Deletes everything of the account once its owner has proved who they are. Every module deletes
   * its own part, phase by phase (ACCOUNT_DATA_PHASES): the stored files first, then sign-in stops,
   * then the rest, the account record last, so a failure half-way is safe and a retry finishes the
   * job (an unavailable file storage fails it with 503 before anything has changed).
   */
  async deleteAccount(user: SessionUser, password: string | undefined, signedInAt: Date, now = Date.now()): Promise<void> {
    const current = await this.load(user);
    if (current.passwordSet !== false) {
      if (password === undefined) throw fieldError('currentPassword', 'Enter your current password');
      await this.checkPassword(current, password);
    } else {
      // No password to ask for: a fresh sign-in through the provider proves it is the owner.
      if (now - signedInAt.getTime() > RECENT_SIGN_IN_MS) {
        throw new ProfileException(
          ProfileErrorCode.SignInAgain,
          `Sign in again to delete your account: it must be done within ${RECENT_SIGN_IN_MS / 60_000} minutes of signing in`,
        );
      }
    }
    await this.accountData.deleteFor(user.id);
  }
}
