import { type FormEvent } from 'react';
import { NEWSLETTER_CONSENT } from '../../../../lib/api/newsletter.js';
import type { ProfileResponse } from '../../../../lib/api/profile.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useUpdateProfile } from '../api.js';

export function DetailsForm({ profile }: { profile: ProfileResponse }) {
  const toast = useToast();
  const save = useUpdateProfile();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate(
      { name: String(form.get('name') ?? ''), newsletterOptIn: form.get('newsletter') === 'on' },
      {
        onSuccess: (saved) =>
          toast(
            saved.newsletterState === 'pending' ? 'Profile saved. Check your inbox to confirm the newsletter.' : 'Profile saved',
            'success',
            { key: 'profile-details' },
          ),
      },
    );
  };
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="details-title" noValidate>
      <h2 id="details-title">Details</h2>
      <FormAlert error={save.error} />
      <FormField
        label="Name"
        name="name"
        defaultValue={profile.name}
        required
        maxLength={100}
        autoComplete="name"
        errors={fieldErrors(save.error).name}
      />
      <label className="checkbox">
        <input type="checkbox" name="newsletter" defaultChecked={profile.newsletterOptIn} />
        <span>{NEWSLETTER_CONSENT.text}</span>
      </label>
      {profile.newsletterState === 'pending' ? (
        <p className="field__hint">Waiting for you to confirm: follow the link we sent to {profile.email}.</p>
      ) : profile.newsletterState === 'confirmed' ? (
        <p className="field__hint">Subscribed. Every newsletter has a one-click unsubscribe link.</p>
      ) : null}
      <div>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save details'}
        </button>
      </div>
    </form>
  );
}
