import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../../account-data/account-data.contributor.js';
import { Ga4mpHistoryService } from './ga4mp-history.service.js';

/** The GA4 MP workbench's history of sent payloads (api_secret never stored). */
@AccountDataPart('data')
@Injectable()
export class Ga4mpAccountData implements AccountDataContributor {
  constructor(private readonly history: Ga4mpHistoryService) {}

  async exportFor(userId: string) {
    return { tools: { ga4mpHistory: await this.history.exportForUser(userId) } };
  }

  async deleteFor(userId: string): Promise<void> {
    await this.history.deleteAllForUser(userId);
  }
}
