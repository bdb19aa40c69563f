import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { FileStorage } from '../storage/file-storage.js';
import { UsersService } from '../users/users.service.js';
import { toProfileResponse } from './dto/profile.response.js';
import { AVATAR_BUCKET } from './profile.service.js';

/** The profile as its owner sees it, and the avatar file, which lives in file storage. */
@AccountDataPart('files')
@Injectable()
export class ProfileAccountData implements AccountDataContributor {
  constructor(
    private readonly users: UsersService,
    private readonly files: FileStorage,
  ) {}

  async exportFor(userId: string) {
    const user = await this.users.findById(userId);
    return user ? { profile: toProfileResponse(user) } : {};
  }

  /** Throws StorageUnavailableError (503) when the storage cannot be reached: nothing has changed then. */
  async deleteFor(userId: string): Promise<void> {
    const user = await this.users.findById(userId);
    await this.files.delete(AVATAR_BUCKET, user?.avatarId);
  }
}
