import { type FormEvent, useId } from 'react';
import { NEWSLETTER_CONSENT } from '../../../../lib/api/newsletter.js';
import { AppLink } from '../../../components/AppLink.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { useSubscribe } from '../api.js';
import '../newsletter.css';

/** The home page's sign-up: double opt-in, so the answer is always "check your inbox". */
export function NewsletterSignupForm() {
  const toast = useToast();
  const consentId = useId();
  const subscribe = useSubscribe();
  const errors = fieldErrors(subscribe.error);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    subscribe.mutate(
      { email: String(form.get('email') ?? ''), consent: form.get('consent') === 'on' },
      { onSuccess: () => toast('Check your inbox to confirm your subscription.', 'success', { key: 'newsletter' }) },
    );
  };

  if (subscribe.isSuccess) {
    return (
      <div className="newsletter-signup newsletter-signup--done" role="status">
        <h3>Almost there</h3>
        <p className="muted">{subscribe.data.message}</p>
        <p className="muted">Nothing arrives? Look in the spam folder; a new link can be requested in 10 minutes.</p>
        <button type="button" className="button" onClick={() => subscribe.reset()}>
          Use another address
        </button>
      </div>
    );
  }

  return (
    <form className="form newsletter-signup" onSubmit={onSubmit} noValidate aria-label="Newsletter sign-up">
      <FormAlert error={subscribe.error} />
      <FormField
        label="E-mail address"
        name="email"
        type="email"
        autoComplete="email"
        required
        placeholder="you@example.com"
        errors={errors.email}
      />
      <div className="newsletter-signup__consent">
        <label className="checkbox" htmlFor={consentId}>
          <input id={consentId} name="consent" type="checkbox" required aria-invalid={errors.consent ? true : undefined} />
          <span>
            {NEWSLETTER_CONSENT.text} See the <AppLink to="/privacy-policy">privacy policy</AppLink>.
          </span>
        </label>
        {errors.consent ? (
          <div className="field__error" role="alert">
            {errors.consent.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        ) : null}
      </div>
      <button type="submit" className="button button--primary" disabled={subscribe.isPending}>
        {subscribe.isPending ? 'Subscribing…' : 'Subscribe'}
      </button>
    </form>
  );
}
