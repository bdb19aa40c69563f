import { type FormEvent, useId } from 'react';
import { PRODUCT } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { useToast } from '../../../components/Toaster.js';
import '../marketing.css';

export function NewsletterSection() {
  const toast = useToast();
  const emailId = useId();
  const consentId = useId();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // There is no newsletter API yet: say so rather than pretend the address was saved.
    toast('Newsletter sign-up opens soon. Your address was not saved.', 'info', { key: 'newsletter' });
  };
  return (
    <section className="section section--alt" aria-labelledby="newsletter-title">
      <div className="container newsletter">
        <div className="newsletter__copy">
          <span className="icon-chip">
            <Icon name="mail" size={22} />
          </span>
          <h2 id="newsletter-title">Release notes and tracking fixes, by e-mail</h2>
          <p className="muted">
            New versions of both products, GA4 and consent-mode changes that break tracking, and the fix. Double opt-in: you confirm from
            your inbox before we send anything, and every e-mail has a one-click unsubscribe link.
          </p>
        </div>
        <form className="form newsletter__form" onSubmit={onSubmit}>
          <div className="field">
            <label htmlFor={emailId}>E-mail address</label>
            <input id={emailId} name="email" type="email" autoComplete="email" required placeholder="you@example.com" />
          </div>
          <label className="checkbox" htmlFor={consentId}>
            <input id={consentId} name="consent" type="checkbox" required />
            <span>
              Send me the {PRODUCT.name} newsletter. I have read the <AppLink to="/privacy-policy">privacy policy</AppLink>.
            </span>
          </label>
          <button type="submit" className="button button--primary">
            Subscribe
          </button>
        </form>
      </div>
    </section>
  );
}
