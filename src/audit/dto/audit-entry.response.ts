import type { AuditEntry } from '../schemas/audit-entry.schema.js';

export interface AuditEntryResponse {
  id: string;
  at: string;
  actor: { id: string; email: string };
  action: string;
  target: { type: string; id: string; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditLogPageResponse {
  items: AuditEntryResponse[];
  total: number;
  page: number;
  pageSize: number;
}

export function toAuditEntryResponse(entry: AuditEntry & { _id: { toString(): string } }): AuditEntryResponse {
  return {
    id: entry._id.toString(),
    at: entry.at.toISOString(),
    actor: { id: entry.actor.id, email: entry.actor.email },
    action: entry.action,
    target: { type: entry.target.type, id: entry.target.id, label: entry.target.label },
    before: entry.before ?? null,
    after: entry.after ?? null,
  };
}
