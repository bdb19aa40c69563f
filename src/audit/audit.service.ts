import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { AuditLogEntry, AuditLogPage } from '../../lib/api/audit.js';
import { toAuditEntryResponse } from './dto/audit-entry.response.js';
import { AuditEntry } from './schemas/audit-entry.schema.js';

export type AuditTargetType =
  | 'user'
  | 'plan'
  | 'product'
  | 'order'
  | 'stripe_event'
  | 'release'
  | 'signing_key'
  | 'site_settings'
  | 'analytics_settings'
  | 'campaign'
  | 'newsletter';

export interface AuditRecord {
  actor: { id: string; email: string };
  /** Dotted verb, e.g. `user.role.change`. */
  action: string;
  /**
   * `user` (admin-users), `plan` and `product` (catalogue), `order` and `stripe_event` (billing),
   * `release` (releases), `signing_key` (licences), `site_settings` (settings; the id names the section),
   * `analytics_settings` (first-party analytics options), `campaign` and `newsletter` (newsletter campaigns and settings).
   */
  target: { type: AuditTargetType; id: string; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditLogQuery {
  page: number;
  pageSize: number;
  targetId?: string;
}

/** The append-only log of administrative actions (collection `audit_log`). */
@Injectable()
export class AuditService {
  constructor(@InjectModel(AuditEntry.name) private readonly entries: Model<AuditEntry>) {}

  async record(input: AuditRecord): Promise<AuditLogEntry> {
    const created = await this.entries.create({ ...input, at: new Date() });
    return toAuditEntryResponse(created.toObject());
  }

  /**
   * When an account is deleted its e-mail must not survive in the log: entries keep their shape
   * (what happened, when) but name the person only as "deleted account".
   */
  async anonymiseUser(userId: string): Promise<void> {
    await this.entries.updateMany({ 'target.id': userId }, { $set: { 'target.label': 'deleted account' } }).exec();
    await this.entries.updateMany({ 'actor.id': userId }, { $set: { 'actor.email': 'deleted account' } }).exec();
  }

  /** Newest first. Count + find with skip/limit (FerretDB has no $facet). */
  async list(query: AuditLogQuery): Promise<AuditLogPage> {
    const filter = query.targetId ? { 'target.id': query.targetId } : {};
    const [total, entries] = await Promise.all([
      this.entries.countDocuments(filter).exec(),
      this.entries
        .find(filter)
        .sort({ at: -1, _id: -1 })
        .skip((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .lean()
        .exec(),
    ]);
    return { items: entries.map(toAuditEntryResponse), total, page: query.page, pageSize: query.pageSize };
  }
}
