import type { ReactNode } from 'react';
import { Icon } from '../../../components/Icon.js';
import '../marketing.css';

/** The home page's newsletter band: the copy here, the sign-up form (the newsletter feature's) as `children`. */
export function NewsletterSection({ children }: { children: ReactNode }) {
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
        {children}
      </div>
    </section>
  );
}
