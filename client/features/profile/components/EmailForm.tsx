import { type FormEvent } from 'react';
import type { ProfileResponse } from '../../../../lib/api/profile.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useChangeEmail } from '../api.js';
import '../profile.css';

export function EmailForm({ profile }: { profile: ProfileResponse }) {
  const toast = useToast();
  const change = useChangeEmail();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    change.mutate(
      { email: String(values.get('email') ?? ''), currentPassword: String(values.get('currentPassword') ?? '') },
      {
        onSuccess: () => {
          toast('Check your new inbox: the change applies once you follow the link', 'success', { key: 'profile-email' });
          form.reset();
        },
      },
    );
  };
  const errors = fieldErrors(change.error);
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="email-title" noValidate>
      <h2 id="email-title">E-mail address</h2>
      <p className="muted profile__lead">
        Currently <strong>{profile.email}</strong>
        {profile.pendingEmail ? (
          <>
            {' '}
            — waiting for you to confirm <strong>{profile.pendingEmail}</strong>
          </>
        ) : null}
        .
      </p>
      {profile.hasPassword ? (
        <>
          <FormAlert error={change.error} />
          <FormField label="New e-mail address" name="email" type="email" required autoComplete="email" errors={errors.email} />
          <FormField
            label="Current password"
            name="currentPassword"
            type="password"
            required
            autoComplete="current-password"
            errors={errors.currentPassword}
          />
          <div>
            <button type="submit" className="button" disabled={change.isPending}>
              {change.isPending ? 'Sending…' : 'Change e-mail'}
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}
