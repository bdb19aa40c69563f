import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { SiteSettingsService } from './site-settings.service.js';

/** The one thing settings keep about a person: which announcement they closed. */
@AccountDataPart('data')
@Injectable()
export class SiteSettingsAccountData implements AccountDataContributor {
  constructor(private readonly settings: SiteSettingsService) {}

  async exportFor(userId: string) {
    const dismissal = await this.settings.dismissalOf(userId);
    return dismissal ? { announcementDismissed: dismissal } : {};
  }

  deleteFor(userId: string): Promise<void> {
    return this.settings.deleteDismissalOf(userId);
  }
}
