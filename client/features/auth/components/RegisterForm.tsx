import { type FormEvent, useEffect, useId, useRef } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type RegisterResponse } from '../../../../lib/api/auth.js';
import { NEWSLETTER_CONSENT } from '../../../../lib/api/newsletter.js';
import { AppLink } from '../../../components/AppLink.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { Icon } from '../../../components/Icon.js';
import { useRegister } from '../api.js';
import { useRedirectTarget, withRedirect } from '../hooks/useRedirectTarget.js';
import { readRegistrationForm } from '../registration.js';
import { ChosenPlan } from './ChosenPlan.js';
import { ProviderSignIn } from './ProviderSignIn.js';
import '../auth.css';

/** `/register`: name, e-mail, password, the terms and the optional newsletter. */
export function RegisterForm() {
  const redirect = useRedirectTarget();
  const register = useRegister(redirect);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    register.mutate(readRegistrationForm(event.currentTarget));
  };

  if (register.data) return <CheckYourInbox answer={register.data} redirect={redirect} onRetry={() => register.reset()} />;
  const errors = fieldErrors(register.error);
  return (
    <section className="card auth-card" aria-labelledby="register-title">
      <h1 id="register-title">Create your account</h1>
      <p className="muted">Four analytics debugging tools, free with your account.</p>
      <ChosenPlan
        redirect={redirect}
        next="Create your account and confirm your e-mail address: you then continue to checkout with this plan."
      />
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
          <span>{NEWSLETTER_CONSENT.text} (Optional: you confirm from your inbox.)</span>
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

/** After registering: where the link went, and what to do when it does not arrive. */
function CheckYourInbox({ answer, redirect, onRetry }: { answer: RegisterResponse; redirect: string | null; onRetry: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card auth-card" aria-labelledby="inbox-title">
      <span className="icon-chip auth-card__icon" aria-hidden="true">
        <Icon name="mail" />
      </span>
      <h1 id="inbox-title" ref={heading} tabIndex={-1}>
        Check your inbox
      </h1>
      <p role="status">{answer.message}</p>
      <ChosenPlan redirect={redirect} next="Open the link in this browser: you are signed in and continue to checkout with this plan." />
      <p className="muted">
        No e-mail after a few minutes? Look in your spam folder, or <AppLink to="/login?forgot=1">reset your password</AppLink> if you
        already had an account.
      </p>
      <p className="auth-card__footer">
        Wrong address?{' '}
        <button type="button" className="button button--ghost button--small" onClick={onRetry}>
          Register again
        </button>
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
