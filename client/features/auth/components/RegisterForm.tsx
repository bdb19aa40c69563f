import { type FormEvent, useId } from 'react';
import { useNavigate } from 'react-router';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../lib/api/auth.js';
import { PRODUCT } from '../../../../lib/product.js';
import { HOME_AFTER_SIGN_IN } from '../../../../lib/routes/route-middleware.js';
import { AppLink } from '../../../components/AppLink.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useRegister } from '../api.js';
import { useRedirectTarget, withRedirect } from '../hooks/useRedirectTarget.js';
import { readRegistrationForm } from '../registration.js';
import { ProviderSignIn } from './ProviderSignIn.js';
import '../auth.css';

/** `/register`: name, e-mail, password, the terms and the optional newsletter. */
export function RegisterForm() {
  const redirect = useRedirectTarget();
  const navigate = useNavigate();
  const toast = useToast();
  const register = useRegister();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    register.mutate(readRegistrationForm(event.currentTarget), {
      onSuccess: async (user) => {
        toast(`Welcome to ${PRODUCT.name}, ${user.name}. We sent a link to ${user.email} to confirm your address.`, 'success', {
          key: 'session',
        });
        await navigate(redirect ?? HOME_AFTER_SIGN_IN, { replace: true });
      },
    });
  };

  const errors = fieldErrors(register.error);
  return (
    <section className="card auth-card" aria-labelledby="register-title">
      <h1 id="register-title">Create your account</h1>
      <p className="muted">Four analytics debugging tools, free with your account.</p>
      <ProviderSignIn redirect={redirect} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormAlert error={register.error} />
        <FormField label="Name" name="name" autoComplete="name" required maxLength={100} errors={errors.name} />
        <FormField label="E-mail" name="email" type="email" autoComplete="email" required errors={errors.email} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. A passphrase of a few words works well.`}
          errors={errors.password}
        />
        <TermsCheckbox errors={errors.terms} />
        <label className="checkbox">
          <input type="checkbox" name="newsletter" />
          <span>Send me the occasional newsletter about GA4 and tagging (optional).</span>
        </label>
        <button className="button button--primary button--block" type="submit" disabled={register.isPending}>
          {register.isPending ? 'Creating account…' : 'Create account'}
        </button>
      </form>
      <p className="auth-card__footer">
        Already have an account? <AppLink to={withRedirect('/login', redirect)}>Sign in</AppLink>
      </p>
    </section>
  );
}

function TermsCheckbox({ errors }: { errors?: readonly string[] }) {
  const errorId = useId();
  return (
    <div className="field">
      <label className="checkbox">
        <input
          type="checkbox"
          name="terms"
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? errorId : undefined}
        />
        <span>
          I accept the <AppLink to="/terms">terms of service</AppLink> and the <AppLink to="/privacy-policy">privacy policy</AppLink>.
        </span>
      </label>
      {errors?.length ? (
        <div className="field__error" id={errorId} role="alert">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
