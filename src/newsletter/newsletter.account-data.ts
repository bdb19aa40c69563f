import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { UsersService } from '../users/users.service.js';
import { NewsletterService } from './newsletter.service.js';

/** The subscription of the account's address: exported with its consent proof, deleted with the account. */
@AccountDataPart('data')
@Injectable()
export class NewsletterAccountData implements AccountDataContributor {
  constructor(
    private readonly users: UsersService,
    private readonly newsletter: NewsletterService,
  ) {}

  async exportFor(userId: string) {
    const user = await this.users.findById(userId);
    const subscription = user ? await this.newsletter.exportFor(user.email) : null;
    return subscription ? { newsletter: subscription } : {};
  }

  async deleteFor(userId: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (user) await this.newsletter.forget(user.email);
  }
}
