import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import { formatDate } from '../format.js';
import { RoleBadge, StatusBadge } from './UserBadges.js';
import '../admin-users.css';

export function UserFacts({ user, isSelf }: { user: AdminUserDetail; isSelf: boolean }) {
  return (
    <dl className="admin-users__facts">
      <div className="admin-users__fact admin-users__fact--wide">
        <dt>E-mail</dt>
        <dd className="admin-users__email">{user.email}</dd>
      </div>
      <div className="admin-users__fact">
        <dt>Role</dt>
        <dd>
          <RoleBadge role={user.role} />
          {isSelf ? <span className="muted admin-users__you"> (you)</span> : null}
        </dd>
      </div>
      <div className="admin-users__fact">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={user.status} />
        </dd>
      </div>
      <div className="admin-users__fact">
        <dt>Joined</dt>
        <dd>
          <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
        </dd>
      </div>
    </dl>
  );
}
