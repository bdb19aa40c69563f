import type { ReactNode } from 'react';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';
import '../marketing.css';

const { apps, browsers } = COMPANION_PRODUCTS;

/** The pricing section's words around the plans (the page composes the catalogue's plan cards in). */
export function PricingSection({ children }: { children: ReactNode }) {
  return (
    <section className="section" aria-labelledby="pricing-title">
      <div className="container">
        <header className="section__header">
          <p className="eyebrow">Pricing</p>
          <h2 id="pricing-title">One licence, both companion products</h2>
          <p>
            Every plan includes {apps.name}, the {apps.kind}, and {browsers.name}, the {browsers.kind}. Cancel a subscription at the end of
            any billing period.
          </p>
        </header>
        {children}
        <p className="pricing__note muted">
          The GA4 Measurement Protocol workbench, the Google tag linker and both analysers in the dashboard are free with an account; a plan
          adds the two companion products.
        </p>
      </div>
    </section>
  );
}
