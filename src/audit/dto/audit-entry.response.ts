import type { AuditLogEntry } from '../../../lib/api/audit.js';
import type { AuditEntry } from '../schemas/audit-entry.schema.js';

/** A stored entry as the API answers it (lib/api/audit.ts). */
export function toAuditEntryResponse(entry: AuditEntry & { _id: { toString(): string } }): AuditLogEntry {
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
