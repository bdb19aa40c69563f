import { type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../lib/api/auth.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useChangePassword } from '../api.js';

const changedMessage = (signedOut: number) =>
  signedOut === 0
    ? 'Password changed'
    : `Password changed; ${signedOut} other ${signedOut === 1 ? 'session was' : 'sessions were'} signed out`;

export function PasswordForm() {
  const toast = useToast();
  const change = useChangePassword();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    change.mutate(
      {
        currentPassword: String(values.get('currentPassword') ?? ''),
        newPassword: String(values.get('newPassword') ?? ''),
        signOutOtherSessions: values.get('signOut') === 'on',
      },
      {
        onSuccess: (result) => {
          toast(changedMessage(result.signedOutSessions), 'success', { key: 'profile-password' });
          form.reset();
        },
      },
    );
  };
  const errors = fieldErrors(change.error);
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="password-title" noValidate>
      <h2 id="password-title">Password</h2>
      <FormAlert error={change.error} />
      <FormField
        label="Current password"
        name="currentPassword"
        type="password"
        required
        autoComplete="current-password"
        errors={errors.currentPassword}
      />
      <FormField
        label="New password"
        name="newPassword"
        type="password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        errors={errors.newPassword}
      />
      <label className="checkbox">
        <input type="checkbox" name="signOut" defaultChecked />
        <span>Sign out my other sessions</span>
      </label>
      <div>
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
