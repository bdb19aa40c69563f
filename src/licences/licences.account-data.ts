import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { LicencesService } from './licences.service.js';

/** A person's licences and devices. The export names keys by their last characters only (no secrets in exports). */
@AccountDataPart('data')
@Injectable()
export class LicencesAccountData implements AccountDataContributor {
  constructor(private readonly licences: LicencesService) {}

  exportFor(userId: string) {
    return this.licences.exportFor(userId);
  }

  deleteFor(userId: string): Promise<void> {
    return this.licences.deleteFor(userId);
  }
}
