import type { UserStatus } from '../../../../lib/api/admin-users.js';
import type { Role } from '../../../../lib/api/auth.js';
import '../admin-users.css';

export function RoleBadge({ role }: { role: Role }) {
  return <span className={role === 'admin' ? 'badge badge--accent' : 'badge'}>{role === 'admin' ? 'Admin' : 'User'}</span>;
}

export function StatusBadge({ status }: { status: UserStatus }) {
  return <span className={`badge admin-users__status admin-users__status--${status}`}>{status === 'active' ? 'Active' : 'Disabled'}</span>;
}
