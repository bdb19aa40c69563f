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

export default function RegisterPage() {
  const [params] = useSearchParams();
  const redirect = safeRedirectPath(params.get('redirect'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const data = useDataSource();
  const toast = useToast();
  const [error, setError] = useState<ApiError | null>(null);
  const [termsError, setTermsError] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const acceptedTerms = form.get('terms') === 'on';
    setTermsError(!acceptedTerms);
    if (!acceptedTerms) return;
    setPending(true);
    setError(null);
    try {
      const user = await api<SessionUser>('/api/auth/register', {
        method: 'POST',
        body: {
          name: form.get('name'),
          email: form.get('email'),
          password: form.get('password'),
          newsletter: form.get('newsletter') === 'on',
        },
      });
      queryClient.setQueryData(meQuery(data).queryKey, user);
      toast(`Welcome to ${PRODUCT.name}, ${user.name}. We sent a link to ${user.email} to confirm your address.`, 'success');
      await navigate(redirect ?? HOME_AFTER_SIGN_IN, { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, 'Something went wrong. Try again.'));
    } finally {
      setPending(false);
    }
  }

  const loginHref = redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login';
  const emailTaken = error?.code === 'EMAIL_TAKEN';
  return (
    <section className="card auth-card" aria-labelledby="register-title">
      <h1 id="register-title">Create your account</h1>
      <p className="muted">Four analytics debugging tools, free while you evaluate.</p>
      <ProviderSignIn redirect={redirect} />
      <form className="form" onSubmit={onSubmit} noValidate>
        {error && !Object.keys(error.fields).length && !emailTaken ? (
          <div className="alert alert--error" role="alert">
            {error.message}
          </div>
        ) : null}
        <FormField label="Name" name="name" autoComplete="name" required maxLength={100} errors={error?.fields.name} />
        <FormField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          errors={emailTaken ? [error.message] : error?.fields.email}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={128}
          hint="At least 12 characters. A passphrase of a few words works well."
          errors={error?.fields.password}
        />
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              name="terms"
              aria-invalid={termsError || undefined}
              aria-describedby={termsError ? 'terms-error' : undefined}
            />
            <span>
              I accept the terms of service and the <AppLink to="/privacy-policy">privacy policy</AppLink>.
            </span>
          </label>
          {termsError ? (
            <p className="field__error" id="terms-error" role="alert">
              Accept the terms to create an account.
            </p>
          ) : null}
        </div>
        <label className="checkbox">
          <input type="checkbox" name="newsletter" />
          <span>Send me the occasional newsletter about GA4 and tagging (optional).</span>
        </label>
        <button className="button button--primary button--block" type="submit" disabled={pending}>
          {pending ? 'Creating account…' : 'Create account'}
        </button>
      </form>
      <p className="auth-card__footer">
        Already have an account? <AppLink to={loginHref}>Sign in</AppLink>
      </p>
    </section>
  );
}
