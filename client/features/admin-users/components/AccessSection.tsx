import { useId } from 'react';
import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import type { Role } from '../../../../lib/api/auth.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import type { UserActions } from '../hooks/useUserActions.js';
import { ConfirmBox } from './ConfirmBox.js';
import { PanelSection } from './PanelSection.js';
import '../admin-users.css';

/** Role and account status. */
export function AccessSection({ user, actions }: { user: AdminUserDetail; actions: UserActions }) {
  const selfHintId = useId();
  const question = actions.questionIn('access');
  return (
    <PanelSection title="Access" headingRef={actions.refs.accessHeading}>
      <div className="admin-users__role-row">
        <Field label="Role">
          {(control) => (
            <select
              {...control}
              ref={actions.refs.roleSelect}
              className="input"
              value={actions.role}
              disabled={actions.locked}
              onChange={(event) => actions.chooseRole(event.target.value as Role)}
            >
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
          )}
        </Field>
        <button
          type="button"
          className="button"
          disabled={actions.locked || actions.role === user.role}
          onClick={(event) => actions.ask({ kind: 'role', role: actions.role }, event.currentTarget)}
        >
          Change role
        </button>
      </div>
      <div className="admin-users__status-row">
        {/* Keyed: after a change the other button is a new element, never this one relabelled. */}
        {user.status === 'active' ? (
          <button
            key="disable"
            type="button"
            className="button button--danger"
            disabled={actions.locked || actions.isSelf}
            aria-describedby={actions.isSelf ? selfHintId : undefined}
            onClick={(event) => actions.ask({ kind: 'status', status: 'disabled' }, event.currentTarget)}
          >
            Disable account
          </button>
        ) : (
          <button
            key="enable"
            type="button"
            className="button"
            disabled={actions.locked}
            onClick={(event) => actions.ask({ kind: 'status', status: 'active' }, event.currentTarget)}
          >
            Enable account
          </button>
        )}
        {actions.isSelf ? (
          <p className="field__hint" id={selfHintId}>
            You cannot disable your own account.
          </p>
        ) : null}
      </div>
      <FormAlert error={actions.errorIn('access')} />
      {question ? <ConfirmBox {...question} busy={actions.busy} onConfirm={question.confirm} onCancel={actions.cancel} /> : null}
    </PanelSection>
  );
}
