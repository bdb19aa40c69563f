/**
 * Request and response shapes of `/api/admin/audit-log` (src/audit), shared by the server's DTOs
 * and mappers and the client. The actions a module writes are listed beside its own API (for
 * accounts: `ADMIN_USER_AUDIT_ACTIONS` in lib/api/admin-users.ts).
 */

/** `GET /api/admin/audit-log` query: newest first, optionally about one target. */
export interface AuditLogQuery {
  /** The id of the target (for users, their id). */
  targetId?: string;
  /** 1-based. */
  page?: number;
  pageSize?: number;
}

export interface AuditLogEntry {
  id: string;
  /** ISO 8601. */
  at: string;
  actor: { id: string; email: string };
  /** Dotted verb, e.g. `user.role.change`. */
  action: string;
  target: { type: string; id: string; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditLogPage {
  items: AuditLogEntry[];
  total: number;
  page: number;
  pageSize: number;
}
