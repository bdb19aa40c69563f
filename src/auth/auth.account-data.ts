import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { AccountTokensService } from './account-tokens.service.js';
import { SessionsService } from './sessions.service.js';

/** Sessions and e-mail/password-reset tokens: removing them is what stops sign-in. */
@AccountDataPart('sign-in')
@Injectable()
export class AuthAccountData implements AccountDataContributor {
  constructor(
    private readonly sessions: SessionsService,
    private readonly tokens: AccountTokensService,
  ) {}

  /** Sessions as a person recognises them (when, which browser); tokens are secrets and stay out. */
  async exportFor(userId: string) {
    return { sessions: await this.sessions.listForUser(userId) };
  }

  async deleteFor(userId: string): Promise<void> {
    await this.sessions.deleteAllForUser(userId);
    await this.tokens.deleteAllForUser(userId);
  }
}
