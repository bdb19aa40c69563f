import { Injectable } from '@nestjs/common';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { AuditService } from './audit.service.js';

/**
 * The audit log is the admins' record of what they did, so it is neither exported nor deleted: the
 * entries stay, and only the person's e-mail address in them is replaced.
 */
@AccountDataPart('audit-log')
@Injectable()
export class AuditAccountData implements AccountDataContributor {
  constructor(private readonly audit: AuditService) {}

  async exportFor() {
    return {};
  }

  deleteFor(userId: string): Promise<void> {
    return this.audit.anonymiseUser(userId);
  }
}
