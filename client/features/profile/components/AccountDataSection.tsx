import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { DELETE_ACCOUNT_CONFIRMATION } from '../../../../lib/api/profile.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useDeleteAccount } from '../api.js';
import '../profile.css';

/** Export everything as JSON, or delete the account after a second, explicit confirmation. */
export function AccountDataSection({ hasPassword }: { hasPassword: boolean }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="data-title" className="form">
      <h2 id="data-title">Your data</h2>
      <p className="muted profile__lead">Download everything we keep about your account as JSON, or delete the account for good.</p>
      <div className="profile__actions">
        <a className="button" href="/api/profile/export" download>
          Export my data
        </a>
        {!confirming ? (
          <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
            Delete my account…
          </button>
        ) : null}
      </div>
      {confirming ? <DeleteAccountForm hasPassword={hasPassword} onCancel={() => setConfirming(false)} /> : null}
    </section>
  );
}

function DeleteAccountForm({ hasPassword, onCancel }: { hasPassword: boolean; onCancel: () => void }) {
  const navigate = useNavigate();
  const toast = useToast();
  const remove = useDeleteAccount();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const confirm = String(form.get('confirm') ?? '');
    remove.mutate(hasPassword ? { currentPassword: String(form.get('currentPassword') ?? ''), confirm } : { confirm }, {
      onSuccess: async () => {
        toast('Your account has been deleted', 'success', { key: 'session' });
        await navigate('/', { replace: true });
      },
    });
  };
  const errors = fieldErrors(remove.error);
  return (
    <form className="form card delete-account" onSubmit={onSubmit} aria-label="Delete account" noValidate>
      <p className="delete-account__warning">
        This deletes your account, sessions, avatar and tool history. It cannot be undone.{' '}
        {hasPassword ? (
          <>
            Type <strong>{DELETE_ACCOUNT_CONFIRMATION}</strong> and your password to confirm.
          </>
        ) : (
          <>
            Type <strong>{DELETE_ACCOUNT_CONFIRMATION}</strong> to confirm. Your account has no password, so this works within 10 minutes of
            signing in through your identity provider.
          </>
        )}
      </p>
      <FormAlert error={remove.error} />
      <FormField label={`Type ${DELETE_ACCOUNT_CONFIRMATION}`} name="confirm" required autoComplete="off" errors={errors.confirm} />
      {hasPassword ? (
        <FormField
          label="Current password"
          name="currentPassword"
          type="password"
          required
          autoComplete="current-password"
          errors={errors.currentPassword}
        />
      ) : null}
      <div className="profile__actions">
        <button type="submit" className="button button--destructive" disabled={remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete account'}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
