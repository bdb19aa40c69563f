import { PRICING } from '../../../../lib/pricing.js';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { useMe } from '../../../app/data-source.js';
import { CheckList } from './CheckList.js';
import '../marketing.css';

const { apps, browsers } = COMPANION_PRODUCTS;

/** The plans of the two companion products; the web tools are free with an account. */
export function PricingSection() {
  const me = useMe();
  const target = me ? '/dashboard/user/subscription' : '/register?redirect=%2Fdashboard%2Fuser%2Fsubscription';
  return (
    <section className="section" aria-labelledby="pricing-title">
      <div className="container">
        <header className="section__header">
          <p className="eyebrow">Pricing</p>
          <h2 id="pricing-title">One licence, both companion products</h2>
          <p>
            Every plan includes {apps.name}, the {apps.kind}, and {browsers.name}, the {browsers.kind}. Prices are in euros per month;
            cancel at the end of any billing period.
          </p>
        </header>
        <ul className="pricing">
          {PRICING.map((plan) => {
            const featured = plan.id === 'team';
            return (
              <li key={plan.id} className={`card plan${featured ? ' plan--featured' : ''}`}>
                <div className="plan__head">
                  <h3>{plan.name}</h3>
                  {featured ? <span className="badge badge--accent">Recommended</span> : null}
                </div>
                <p className="plan__price">
                  <span className="plan__amount">€{plan.monthlyPrice}</span>
                  <span className="plan__period">per month</span>
                </p>
                <p className="plan__seats muted">{plan.seats === 1 ? 'For one person' : `For teams of up to ${plan.seats} people`}</p>
                <CheckList items={plan.features} />
                <AppLink to={target} className={`button button--block${featured ? ' button--primary' : ''}`}>
                  Choose {plan.name}
                </AppLink>
              </li>
            );
          })}
        </ul>
        <p className="pricing__note muted">
          The GA4 Measurement Protocol workbench, the Google tag linker and both analysers in the dashboard are free with an account; a plan
          adds the two companion products.
        </p>
      </div>
    </section>
  );
}
