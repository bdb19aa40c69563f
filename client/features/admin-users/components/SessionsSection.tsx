import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import { FormAlert } from '../../../components/FormAlert.js';
import type { UserActions } from '../hooks/useUserActions.js';
import { ConfirmBox } from './ConfirmBox.js';
import { PanelSection } from './PanelSection.js';
import '../admin-users.css';

function describeSessions(active: number): string {
  if (active === 0) return 'No active sessions: signed out everywhere.';
  if (active === 1) return '1 active session (a browser or device signed in).';
  return `${active} active sessions (browsers and devices signed in).`;
}

/** Live sign-ins, and the way to end them all. */
export function SessionsSection({ user, actions }: { user: AdminUserDetail; actions: UserActions }) {
  const question = actions.questionIn('sessions');
  return (
    <PanelSection title="Sessions" headingRef={actions.refs.sessionsHeading}>
      <div className="admin-users__sessions-row">
        <p>{describeSessions(user.sessions.active)}</p>
        <button
          type="button"
          className="button button--danger"
          disabled={actions.locked}
          onClick={(event) => actions.ask({ kind: 'revoke' }, event.currentTarget)}
        >
          Sign out everywhere
        </button>
      </div>
      <FormAlert error={actions.errorIn('sessions')} />
      {question ? <ConfirmBox {...question} busy={actions.busy} onConfirm={question.confirm} onCancel={actions.cancel} /> : null}
    </PanelSection>
  );
}
