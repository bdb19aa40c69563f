import { useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import type { SessionUser } from '../../../../lib/api/auth.js';
import { ApiError } from '../../../app/api-client.js';
import { useMe } from '../../../app/data-source.js';
import { Dialog } from '../../../components/Dialog.js';
import { adminUserDetailQuery } from '../api.js';
import { useUserActions } from '../hooks/useUserActions.js';
import { AccessSection } from './AccessSection.js';
import { AuditList } from './AuditList.js';
import { CommerceSection } from './CommerceSection.js';
import { PanelSection } from './PanelSection.js';
import { RetryAlert } from './RetryAlert.js';
import { SessionsSection } from './SessionsSection.js';
import { UserFacts } from './UserFacts.js';
import '../admin-users.css';

interface Props {
  userId: string;
  onClose: () => void;
  /** Where the focus goes when the panel closes. */
  returnFocus: () => HTMLElement | null;
}

/** One account in a drawer: facts, role and status, sessions, what they bought, and what admins did. */
export function UserPanel({ userId, onClose, returnFocus }: Props) {
  const detail = useQuery(adminUserDetailQuery(userId));
  const me = useMe();
  const user = detail.data;
  return (
    <Dialog title={user ? user.name : 'User details'} onClose={onClose} returnFocus={returnFocus} closeLabel="user details">
      {detail.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading user details" className="admin-users__panel-body">
          <div className="skeleton admin-users__skeleton-line admin-users__skeleton-line--short" />
          <div className="skeleton admin-users__skeleton-block" />
          <div className="skeleton admin-users__skeleton-block admin-users__skeleton-block--tall" />
        </div>
      ) : !user ? (
        <RetryAlert
          message={detail.error?.message ?? 'Could not load this user.'}
          onRetry={detail.error instanceof ApiError && detail.error.status === 404 ? undefined : () => void detail.refetch()}
        />
      ) : (
        <UserDetails user={user} me={me} />
      )}
    </Dialog>
  );
}

function UserDetails({ user, me }: { user: AdminUserDetail; me: SessionUser | null }) {
  const actions = useUserActions(user, me);
  return (
    <div className="admin-users__panel-body">
      <UserFacts user={user} isSelf={actions.isSelf} />
      <AccessSection user={user} actions={actions} />
      <SessionsSection user={user} actions={actions} />
      <CommerceSection user={user} />
      <PanelSection title="Recent activity">
        <AuditList userId={user.id} meEmail={me?.email} />
      </PanelSection>
    </div>
  );
}
