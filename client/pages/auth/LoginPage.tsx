import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SessionUser } from '../../../lib/api/auth.js';
import { safeRedirectPath } from '../../../lib/http/safe-redirect.js';
import { PRODUCT } from '../../../lib/product.js';
import { HOME_AFTER_SIGN_IN } from '../../../lib/routes/route-middleware.js';
import { AppLink } from '../../components/AppLink.js';
import { FormField } from '../../components/FormField.js';
import { useToast } from '../../components/Toaster.js';
import { api, ApiError } from '../../app/api-client.js';
import { useDataSource } from '../../app/data-source.js';
import { meQuery } from '../../app/queries.js';
import { ProviderSignIn } from './ProviderSignIn.js';
import '../../features/auth/auth.css';

/** `/login?forgot=1`: ask for a reset link. The answer is the same whether or not the account exists. */
function ForgotPasswordForm() {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const answer = await api<{ message: string }>('/api/auth/forgot-password', {
        method: 'POST',
        body: { email: new FormData(event.currentTarget).get('email') },
      });
      setSent(answer.message);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, 'Something went wrong. Try again.'));
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card auth-card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Reset your password</h1>
      {sent ? (
        <div className="alert alert--info" role="status">
          {sent}
        </div>
      ) : (
        <>
          <p className="muted">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
          <form className="form" onSubmit={onSubmit} noValidate>
            {error && !Object.keys(error.fields).length ? (
              <div className="alert alert--error" role="alert">
                {error.message}
              </div>
            ) : null}
            <FormField label="E-mail" name="email" type="email" autoComplete="email" required errors={error?.fields.email} />
            <button className="button button--primary button--block" type="submit" disabled={pending}>
              {pending ? 'Sending…' : 'Send reset link'}
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

/** `/login?reset=<token>`: the link from the reset e-mail. */
function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [error, setError] = useState<ApiError | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await api('/api/auth/reset-password', {
        method: 'POST',
        body: { token, password: new FormData(event.currentTarget).get('password') },
      });
      toast('Password changed. Sign in with your new password.', 'success');
      await navigate('/login', { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, 'Something went wrong. Try again.'));
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card auth-card" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <p className="muted">You will be signed out on every device.</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        {error && !Object.keys(error.fields).length ? (
          <div className="alert alert--error" role="alert">
            {error.message} <AppLink to="/login?forgot=1">Request a new link</AppLink>
          </div>
        ) : null}
        <FormField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={128}
          hint="At least 12 characters. A passphrase of a few words works well."
          errors={error?.fields.password ?? error?.fields.token}
        />
        <button className="button button--primary button--block" type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </section>
  );
}

export default function LoginPage() {
  const [params] = useSearchParams();
  const resetToken = params.get('reset');
  if (resetToken) return <ResetPasswordForm token={resetToken} />;
  if (params.has('forgot')) return <ForgotPasswordForm />;
  return <SignInForm />;
}

function SignInForm() {
  const [params] = useSearchParams();
  const redirect = safeRedirectPath(params.get('redirect'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const data = useDataSource();
  const toast = useToast();
  const [error, setError] = useState<ApiError | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const user = await api<SessionUser>('/api/auth/login', {
        method: 'POST',
        body: { email: form.get('email'), password: form.get('password') },
      });
      queryClient.setQueryData(meQuery(data).queryKey, user);
      toast(`Welcome back, ${user.name}`, 'success');
      await navigate(redirect ?? HOME_AFTER_SIGN_IN, { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, 'Something went wrong. Try again.'));
    } finally {
      setPending(false);
    }
  }

  const registerHref = redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register';
  return (
    <section className="card auth-card" aria-labelledby="login-title">
      <h1 id="login-title">Sign in to {PRODUCT.name}</h1>
      <p className="muted">Welcome back. Your tools are where you left them.</p>
      <ProviderSignIn redirect={redirect} />
      <form className="form" onSubmit={onSubmit} noValidate>
        {error && !Object.keys(error.fields).length ? (
          <div className="alert alert--error" role="alert">
            {error.message}
          </div>
        ) : null}
        <FormField label="E-mail" name="email" type="email" autoComplete="email" required errors={error?.fields.email} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          errors={error?.fields.password}
        />
        <p className="field__hint" style={{ marginTop: '-0.5rem' }}>
          <AppLink to="/login?forgot=1">Forgot your password?</AppLink>
        </p>
        <button className="button button--primary button--block" type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="auth-card__footer">
        New here? <AppLink to={registerHref}>Create an account</AppLink>
      </p>
    </section>
  );
}
