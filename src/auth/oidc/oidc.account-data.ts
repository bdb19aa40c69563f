import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../../account-data/account-data.contributor.js';
import { OidcAccountsService } from './oidc-accounts.service.js';

/** Links to provider accounts: they sign in here, so they go with the sessions. */
@AccountDataPart('sign-in')
@Injectable()
export class OidcAccountData implements AccountDataContributor {
  constructor(private readonly accounts: OidcAccountsService) {}

  async exportFor(userId: string) {
    return { linkedIdentities: await this.accounts.listForUser(userId) };
  }

  deleteFor(userId: string): Promise<void> {
    return this.accounts.deleteAllForUser(userId);
  }
}
