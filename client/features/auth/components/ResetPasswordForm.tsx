import { type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../lib/api/auth.js';
import { AppLink } from '../../../components/AppLink.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useResetPassword } from '../api.js';
import '../auth.css';

/** `/login?reset=<token>`: the link from the reset e-mail. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const reset = useResetPassword();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset.mutate(
      { token, password: String(new FormData(event.currentTarget).get('password') ?? '') },
      {
        onSuccess: async () => {
          toast('Password changed. Sign in with your new password.', 'success', { key: 'session' });
          await navigate('/login', { replace: true });
        },
      },
    );
  };
  const errors = fieldErrors(reset.error);
  return (
    <section className="card auth-card" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <p className="muted">You will be signed out on every device.</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormAlert error={reset.error}>
          <AppLink to="/login?forgot=1">Request a new link</AppLink>
        </FormAlert>
        <FormField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. A passphrase of a few words works well.`}
          errors={errors.password ?? errors.token}
        />
        <button className="button button--primary button--block" type="submit" disabled={reset.isPending}>
          {reset.isPending ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </section>
  );
}
