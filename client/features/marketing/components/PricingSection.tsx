import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { pricingCopy } from '../../../../lib/billing/plan-copy.js';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery } from '../../../app/queries.js';
import '../marketing.css';

/**
 * The pricing section's words around the plans (the page composes the catalogue's plan cards in).
 * Its heading and lead are derived from the plans on sale (lib/billing/plan-copy.ts), so it says
 * "both companion products" only while every plan covers both. The section is named by its eyebrow,
 * "Pricing", which does not change with the catalogue.
 */
export function PricingSection({ children }: { children: ReactNode }) {
  const catalogue = useQuery(catalogueQuery(useDataSource()));
  const copy = pricingCopy(catalogue.data?.plans ?? []);
  return (
    <section className="section" aria-labelledby="pricing-eyebrow">
      <div className="container">
        <header className="section__header">
          <p className="eyebrow" id="pricing-eyebrow">
            Pricing
          </p>
          <h2 id="pricing-title">{copy.heading}</h2>
          <p>{copy.lead}</p>
        </header>
        {children}
        <p className="pricing__note muted">
          The GA4 Measurement Protocol workbench, the Google tag linker and both analysers in the dashboard are free with an account; a plan
          adds the companion products it names.
        </p>
      </div>
    </section>
  );
}
