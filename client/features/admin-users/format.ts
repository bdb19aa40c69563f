import { ADMIN_USER_AUDIT_ACTIONS } from '../../../lib/api/admin-users.js';
import type { AuditLogEntry } from '../../../lib/api/audit.js';

/** The site's one date format (lib/format/date.ts: British English, UTC). */
export { formatDate, formatDateTime } from '../../../lib/format/date.js';

/** "1 session", "2 sessions", "0 sessions". */
export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export function describeAuditEntry(entry: AuditLogEntry): string {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  switch (entry.action) {
    case ADMIN_USER_AUDIT_ACTIONS.changeRole:
      return `Role changed from ${String(before.role)} to ${String(after.role)}`;
    case ADMIN_USER_AUDIT_ACTIONS.disable:
      return typeof after.revokedSessions === 'number' && after.revokedSessions > 0
        ? `Disabled; ${plural(after.revokedSessions, 'session')} ended`
        : 'Disabled';
    case ADMIN_USER_AUDIT_ACTIONS.enable:
      return 'Enabled';
    case ADMIN_USER_AUDIT_ACTIONS.revokeSessions:
      return `Signed out everywhere (${plural(Number(after.revoked ?? 0), 'session')} ended)`;
    default:
      return entry.action;
  }
}

/* Commerce ------------------------------------------------------------------------------------ */

/** `past_due` → "Past due". */
export const statusLabel = (status: string) => {
  const words = status.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The badge of a licence, order or subscription state (`past_due` → `…--past-due`). */
export const stateClass = (status: string) => `badge admin-users__state admin-users__state--${status.replaceAll('_', '-')}`;
