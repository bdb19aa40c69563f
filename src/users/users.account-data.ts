import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { UsersService } from './users.service.js';

/** The account record, deleted last. Its export is the profile module's `profile` section. */
@AccountDataPart('account')
@Injectable()
export class UsersAccountData implements AccountDataContributor {
  constructor(private readonly users: UsersService) {}

  async exportFor() {
    return {};
  }

  deleteFor(userId: string): Promise<void> {
    return this.users.deleteById(userId);
  }
}
