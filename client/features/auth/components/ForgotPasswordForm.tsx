import { type FormEvent } from 'react';
import { AppLink } from '../../../components/AppLink.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useForgotPassword } from '../api.js';
import '../auth.css';

/** `/login?forgot=1`: ask for a reset link. The answer is the same whether or not the account exists. */
export function ForgotPasswordForm() {
  const request = useForgotPassword();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    request.mutate({ email: String(new FormData(event.currentTarget).get('email') ?? '') });
  };
  return (
    <section className="card auth-card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Reset your password</h1>
      {request.isSuccess ? (
        <div className="alert alert--info" role="status">
          {request.data.message}
        </div>
      ) : (
        <>
          <p className="muted">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
          <form className="form" onSubmit={onSubmit} noValidate>
            <FormAlert error={request.error} />
            <FormField label="E-mail" name="email" type="email" autoComplete="email" required errors={fieldErrors(request.error).email} />
            <button className="button button--primary button--block" type="submit" disabled={request.isPending}>
              {request.isPending ? 'Sending…' : 'Send reset link'}
            </button>
          </form>
        </>
      )}
      <p className="auth-card__footer">
        <AppLink to="/login">Back to sign in</AppLink>
      </p>
    </section>
  );
}
