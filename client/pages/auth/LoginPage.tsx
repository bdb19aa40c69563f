import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SessionUser } from '../../../lib/auth/session-user.js';
import { safeRedirectPath } from '../../../lib/http/safe-redirect.js';
import { PRODUCT } from '../../../lib/product.js';
import { HOME_AFTER_SIGN_IN } from '../../../lib/routes/route-middleware.js';
import { AppLink } from '../../components/AppLink.js';
import { FormField } from '../../components/FormField.js';
import { useToast } from '../../components/Toaster.js';
import { api, ApiError } from '../../lib/api.js';
import { useDataSource } from '../../lib/data-source-context.js';
import { meQuery } from '../../lib/queries.js';

export default function LoginPage() {
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
