import { type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { parseVerifiedParam, VERIFIED_PARAM } from '../../../../lib/api/auth.js';
import { colorModeAtSignIn } from '../../../../lib/client-constants.js';
import { PRODUCT } from '../../../../lib/product.js';
import { HOME_AFTER_SIGN_IN } from '../../../../lib/routes/route-middleware.js';
import { useColorMode } from '../../../app/color-mode.js';
import { AppLink } from '../../../components/AppLink.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useLogin } from '../api.js';
import { useRedirectTarget, withRedirect } from '../hooks/useRedirectTarget.js';
import { ChosenPlan } from './ChosenPlan.js';
import { EmailVerifiedNotice } from './EmailVerifiedNotice.js';
import { ProviderSignIn } from './ProviderSignIn.js';
import '../auth.css';

/** `/login`: e-mail and password (or the provider), then the page that sent the visitor here. */
export function SignInForm() {
  const redirect = useRedirectTarget();
  const [params] = useSearchParams();
  const verified = parseVerifiedParam(params.get(VERIFIED_PARAM));
  const navigate = useNavigate();
  const toast = useToast();
  const login = useLogin();
  const { setMode: setColorMode } = useColorMode();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    login.mutate(
      { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') },
      {
        onSuccess: async (user) => {
          // The server set the cookie already; this page, already drawn, takes the account's mode too.
          const saved = colorModeAtSignIn(user.colorMode);
          if (saved) setColorMode(saved);
          toast(`Welcome back, ${user.name}`, 'success', { key: 'session' });
          await navigate(redirect ?? HOME_AFTER_SIGN_IN, { replace: true });
        },
      },
    );
  };

  const errors = fieldErrors(login.error);
  return (
    <section className="card auth-card" aria-labelledby="login-title">
      <h1 id="login-title">Sign in to {PRODUCT.name}</h1>
      {verified === null ? (
        <p className="muted">Welcome back. Your tools are where you left them.</p>
      ) : (
        <EmailVerifiedNotice verified={verified} />
      )}
      <ChosenPlan redirect={redirect} next="Sign in: you then continue to checkout with this plan." />
      <ProviderSignIn redirect={redirect} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormAlert error={login.error} />
        <FormField label="E-mail" name="email" type="email" autoComplete="email" required errors={errors.email} />
        <FormField label="Password" name="password" type="password" autoComplete="current-password" required errors={errors.password} />
        <p className="field__hint auth-card__forgot">
          <AppLink to="/login?forgot=1">Forgot your password?</AppLink>
        </p>
        <button className="button button--primary button--block" type="submit" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="auth-card__footer">
        New here? <AppLink to={withRedirect('/register', redirect)}>Create an account</AppLink>
      </p>
    </section>
  );
}
